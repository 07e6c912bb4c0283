import Foundation

extension ArchiveValue {
    /// Renders the value as JSON text, for printing an archive without the app's types.
    ///
    /// Keyed containers become objects with their fields in archive order, `Data`
    /// becomes a base64 string, `Date` an ISO 8601 string with fractional seconds
    /// (UTC), `UUID` its canonical string, and non-finite doubles the strings `"NaN"`,
    /// `"Infinity"` and `"-Infinity"` (JSON has no such numbers).
    ///
    /// ```swift
    /// let text = try ArchiveValue(decoding: data).jsonString(prettyPrinted: true)
    /// // {
    /// //   "title" : "Inbox",
    /// //   "unread" : 3
    /// // }
    /// ```
    ///
    /// - Parameter prettyPrinted: Whether to indent nested containers by two spaces
    ///   per level, one member per line.
    /// - Returns: The JSON text.
    public func jsonString(prettyPrinted: Bool) -> String {
        var output = ""
        render(into: &output, prettyPrinted: prettyPrinted, indent: 0)
        return output
    }

    private func render(into output: inout String, prettyPrinted: Bool, indent: Int) {
        switch self {
        case .null:
            output += "null"
        case .bool(let value):
            output += value ? "true" : "false"
        case .int(let value):
            output += String(value)
        case .uint(let value):
            output += String(value)
        case .double(let value):
            if value.isNaN {
                output += "\"NaN\""
            } else if value.isInfinite {
                output += value < 0 ? "\"-Infinity\"" : "\"Infinity\""
            } else if value == value.rounded(), abs(value) < 1e15 {
                output += String(Int64(value))
            } else {
                output += "\(value)"
            }
        case .string(let value):
            Self.appendQuoted(value, to: &output)
        case .data(let value):
            Self.appendQuoted(value.base64EncodedString(), to: &output)
        case .date(let value):
            let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            Self.appendQuoted(value.formatted(style), to: &output)
        case .uuid(let value):
            Self.appendQuoted(value.uuidString, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                if prettyPrinted { Self.newline(&output, indent + 1) }
                element.render(into: &output, prettyPrinted: prettyPrinted, indent: indent + 1)
            }
            if prettyPrinted { Self.newline(&output, indent) }
            output += "]"
        case .object(let fields):
            guard !fields.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, field) in fields.enumerated() {
                if index > 0 { output += "," }
                if prettyPrinted { Self.newline(&output, indent + 1) }
                Self.appendQuoted(field.name, to: &output)
                output += prettyPrinted ? " : " : ":"
                field.value.render(into: &output, prettyPrinted: prettyPrinted, indent: indent + 1)
            }
            if prettyPrinted { Self.newline(&output, indent) }
            output += "}"
        }
    }

    private static func newline(_ output: inout String, _ indent: Int) {
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    private static func appendQuoted(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
