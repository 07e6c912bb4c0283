/// Turns the bytes a terminal in raw mode sends into keys.
///
/// Arrow keys arrive as escape sequences (`ESC [ A`), and Esc alone as a lone
/// `ESC`: a sequence cut between two reads is held back (``isWaiting``) until the
/// rest arrives, or until ``flush()`` decides that a lone `ESC` was the Esc key.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Whether bytes are held back, waiting for the rest of a sequence.
    var isWaiting: Bool { !pending.isEmpty }

    /// The keys in `bytes` (and in the bytes held back before them).
    mutating func decode(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        decoding: while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x1B:
                guard index + 1 < pending.count else { break decoding }
                let next = pending[index + 1]
                guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                guard let final = pending[(index + 2)...].firstIndex(where: { (0x40...0x7E).contains($0) }) else {
                    break decoding
                }
                switch pending[final] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                case UInt8(ascii: "Z"): keys.append(.backTab)
                default: break  // a key the app does not use
                }
                index = final + 1
            case 0x0D, 0x0A: keys.append(.enter); index += 1
            case 0x7F, 0x08: keys.append(.backspace); index += 1
            case 0x09: keys.append(.tab); index += 1
            case 0x11, 0x04: keys.append(.quit); index += 1
            case ..<0x20: index += 1
            default:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard index + length <= pending.count else { break decoding }
                let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
                keys += text.map { .character($0) }
                index += length
            }
        }
        pending.removeFirst(index)
        return keys
    }

    /// Ends the wait for the rest of a sequence: a lone `ESC` is the Esc key, and
    /// anything else held back is dropped.
    mutating func flush() -> [Key] {
        defer { pending = [] }
        return pending.first == 0x1B ? [.escape] : []
    }
}
