/// graphql-js's "Did you mean …?" machinery: `suggestionList` (options within an edit distance
/// of the input, best first) and `didYouMean` (the message suffix). Kept identical to
/// graphql-js so that suggestions, and their order, match the reference one to one.
package enum Suggestions {
    /// The options close to `input`, sorted by lexical distance, then by natural order.
    /// A case-only difference counts as one edit; so does swapping two adjacent characters.
    package static func list(_ input: String, _ options: some Sequence<String>) -> [String] {
        let measure = LexicalDistance(input)
        let threshold = input.utf16.count * 4 / 10 + 1
        var distances: [String: Int] = [:]
        var ordered: [String] = []
        for option in options where distances[option] == nil {
            if let distance = measure.distance(to: option, threshold: threshold) {
                distances[option] = distance
                ordered.append(option)
            }
        }
        return ordered.sorted { lhs, rhs in
            let left = distances[lhs] ?? 0
            let right = distances[rhs] ?? 0
            if left != right { return left < right }
            return naturalCompare(lhs, rhs) < 0
        }
    }

    /// ` Did you mean "a", "b", or "c"?` (at most five), or "" for no suggestions. `subMessage`
    /// is inserted after "mean" as graphql-js's two-argument form does (`the enum value`).
    package static func didYouMean(_ suggestions: [String], subMessage: String? = nil) -> String {
        var message = " Did you mean "
        if let subMessage { message += subMessage + " " }
        let quoted = suggestions.map { "\"\($0)\"" }
        switch quoted.count {
        case 0: return ""
        case 1: return message + quoted[0] + "?"
        case 2: return message + quoted[0] + " or " + quoted[1] + "?"
        default:
            let selected = Array(quoted.prefix(5))
            return message + selected.dropLast().joined(separator: ", ") + ", or " + (selected.last ?? "") + "?"
        }
    }

    /// graphql-js's `naturalCompare`: digit runs compare by numeric value, everything else by
    /// UTF-16 code unit.
    package static func naturalCompare(_ a: String, _ b: String) -> Int {
        let left = Array(a.utf16)
        let right = Array(b.utf16)
        var i = 0
        var j = 0
        func isDigit(_ unit: UInt16) -> Bool { unit >= 48 && unit <= 57 }
        while i < left.count && j < right.count {
            let x = left[i]
            let y = right[j]
            if isDigit(x) && isDigit(y) {
                // As graphql-js: a number run stops after a leading zero (`aNum > 0` check).
                var leftNumber = 0
                repeat {
                    leftNumber = leftNumber &* 10 &+ Int(left[i] - 48)
                    i += 1
                } while i < left.count && isDigit(left[i]) && leftNumber > 0
                var rightNumber = 0
                repeat {
                    rightNumber = rightNumber &* 10 &+ Int(right[j] - 48)
                    j += 1
                } while j < right.count && isDigit(right[j]) && rightNumber > 0
                if leftNumber < rightNumber { return -1 }
                if leftNumber > rightNumber { return 1 }
            } else {
                if x < y { return -1 }
                if x > y { return 1 }
                i += 1
                j += 1
            }
        }
        return left.count - right.count
    }
}

/// Damerau-Levenshtein distance with graphql-js's twist (a case-only change is one edit),
/// computed on lower-cased UTF-16 code units with three rolling rows.
private struct LexicalDistance {
    let input: String
    let inputLowerCase: String
    let inputUnits: [UInt16]

    init(_ input: String) {
        self.input = input
        self.inputLowerCase = input.lowercased()
        self.inputUnits = Array(inputLowerCase.utf16)
    }

    func distance(to option: String, threshold: Int) -> Int? {
        if option == input { return 0 }
        let optionLowerCase = option.lowercased()
        if optionLowerCase == inputLowerCase { return 1 }
        var a = Array(optionLowerCase.utf16)
        var b = inputUnits
        if a.count < b.count { swap(&a, &b) }
        let aLength = a.count
        let bLength = b.count
        if aLength - bLength > threshold { return nil }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: bLength + 1), count: 3)
        for j in 0...bLength { rows[0][j] = j }
        if aLength == 0 { return bLength <= threshold ? bLength : nil }
        for i in 1...aLength {
            let up = (i - 1) % 3
            let current = i % 3
            rows[current][0] = i
            var smallest = i
            if bLength > 0 {
                for j in 1...bLength {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var cell = min(rows[up][j] + 1, rows[current][j - 1] + 1, rows[up][j - 1] + cost)
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        cell = min(cell, rows[(i - 2) % 3][j - 2] + 1)
                    }
                    if cell < smallest { smallest = cell }
                    rows[current][j] = cell
                }
            }
            if smallest > threshold { return nil }
        }
        let distance = rows[aLength % 3][bLength]
        return distance <= threshold ? distance : nil
    }
}
