/// UTF-8 validation of the strings an archive holds, and strings made from them.
///
/// An archive is untrusted input, so every string read from it is validated. The standard
/// library's validator (behind `String._tryFromUTF8`) checks eight bytes at a time only while a
/// string is all ASCII; one accented letter sends the whole string through a byte-by-byte
/// iterator. This one returns to eight bytes at a time after every multi-byte scalar, and the
/// string is then made without validating again (`String(copying: UTF8Span)`), where the
/// compiler and the standard library have that initializer (Swift 6.2, macOS 26 and the
/// matching systems).
enum ArchiveUTF8 {
    /// Whether the `count` bytes at `start` are well-formed UTF-8, by the table of well-formed
    /// byte sequences in the Unicode Standard (section 3.9, table 3-7): no continuation byte
    /// without a lead byte, no overlong form, no surrogate, nothing above U+10FFFF, no scalar
    /// cut off by the end.
    ///
    /// It reads eight bytes at a time, the last word reaching up to 7 bytes past the end (and
    /// ignoring them), so those bytes must be readable memory: the decoder's copy of its input
    /// is followed by ``ArchiveDecodingState/padding`` zero bytes.
    ///
    /// - Returns: `nil` if the bytes are not well-formed UTF-8; otherwise whether they are all
    ///   ASCII.
    @inline(__always)
    static func validate(_ start: UnsafePointer<UInt8>, count: Int) -> Bool? {
        var index = 0
        var isASCII = true
        while index < count {
            let word = UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)
            var high = (word & 0x8080_8080_8080_8080).littleEndian
            let left = count &- index
            if left < 8 {
                // Only the first `left` bytes are the string's.
                high &= (1 &<< (UInt64(truncatingIfNeeded: left) &<< 3)) &- 1
            }
            if high == 0 {
                index &+= 8
                continue
            }
            // Skip the ASCII bytes before the first byte with its high bit set.
            index &+= high.trailingZeroBitCount &>> 3
            isASCII = false
            let lead = start[index]
            let rest = count &- index
            if lead < 0xE0 {
                // C2...DF, then one continuation byte (80...BF are never leads, C0 and C1 overlong).
                guard lead >= 0xC2, rest >= 2, start[index &+ 1] & 0xC0 == 0x80 else { return nil }
                index &+= 2
            } else if lead < 0xF0 {
                // E0 A0...BF, E1...EC 80...BF, ED 80...9F, EE...EF 80...BF; then one more.
                guard rest >= 3 else { return nil }
                let second = start[index &+ 1]
                guard second & 0xC0 == 0x80, start[index &+ 2] & 0xC0 == 0x80 else { return nil }
                if lead == 0xE0 && second < 0xA0 || lead == 0xED && second > 0x9F { return nil }
                index &+= 3
            } else {
                // F0 90...BF, F1...F3 80...BF, F4 80...8F; then two more.
                guard lead <= 0xF4, rest >= 4 else { return nil }
                let second = start[index &+ 1]
                guard second & 0xC0 == 0x80, start[index &+ 2] & 0xC0 == 0x80, start[index &+ 3] & 0xC0 == 0x80
                else { return nil }
                if lead == 0xF0 && second < 0x90 || lead == 0xF4 && second > 0x8F { return nil }
                index &+= 4
            }
        }
        return isASCII
    }

    /// A string of the `count` bytes at `start`, or `nil` if they are not well-formed UTF-8.
    /// Up to 7 bytes after them must be readable (see ``validate(_:count:)``).
    @inline(__always)
    static func string(_ start: UnsafePointer<UInt8>, count: Int) -> String? {
        // `UTF8Span` and `String(copying:)` came with Swift 6.2 and its standard library.
        #if compiler(>=6.2)
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                guard let isASCII = validate(start, count: count) else { return nil }
                let bytes = Span(_unsafeStart: start, count: count)
                return String(copying: UTF8Span(unchecked: bytes, isKnownASCII: isASCII))
            }
        #endif
        // Older compilers and systems: the standard library validates as it copies.
        return String._tryFromUTF8(UnsafeBufferPointer(start: start, count: count))
    }
}
