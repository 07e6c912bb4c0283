/// Two lists of lines in two aligned columns, with a marker on the rows that differ.
///
/// ```text
///   before                 after
///   tabs  selected: shop │ tabs  selected: shop
/// ≠   search#0  "oat"    │   search#0  ""
/// ```
struct SideBySide {
    var left: [String]
    var right: [String]

    /// The number of rows whose two sides differ.
    var differenceCount: Int {
        (0..<max(left.count, right.count)).filter { row(left, $0) != row(right, $0) }.count
    }

    /// The rows, with the titles above them.
    func lines(leftTitle: String, rightTitle: String) -> [String] {
        let width = max(leftTitle.count, left.map(\.count).max() ?? 0)
        var lines = ["  " + pad(leftTitle, width) + "   " + rightTitle]
        for index in 0..<max(left.count, right.count) {
            let (leftText, rightText) = (row(left, index), row(right, index))
            let marker = leftText == rightText ? " " : "≠"
            lines.append("\(marker) \(pad(leftText, width)) \(marker == " " ? "│" : "≠") \(rightText)")
        }
        return lines
    }

    private func row(_ lines: [String], _ index: Int) -> String {
        lines.indices.contains(index) ? lines[index] : ""
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
