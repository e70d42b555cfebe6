/// graphql-js's "Did you mean …?" machinery: `suggestionList` (options within a lexical
/// distance of the input, closest first, ties in natural order) and `didYouMean` (at most five
/// quoted suggestions joined as English).
package enum SuggestionList {
    /// The options close to `input`, ordered as graphql-js's `suggestionList` orders them.
    package static func list(_ input: String, _ options: some Sequence<String>) -> [String] {
        let measurer = LexicalDistance(input)
        let threshold = input.utf16.count * 4 / 10 + 1
        var byDistance: [String: Int] = [:]
        var order: [String] = []
        for option in options {
            guard let distance = measurer.measure(option, threshold: threshold) else { continue }
            if byDistance.updateValue(distance, forKey: option) == nil { order.append(option) }
        }
        return order.sorted { a, b in
            let da = byDistance[a] ?? 0
            let db = byDistance[b] ?? 0
            if da != db { return da < db }
            return naturalCompare(a, b) < 0
        }
    }

    /// `didYouMean(suggestions)`: "" when empty, else " Did you mean "a", "b", or "c"?".
    package static func didYouMean(_ suggestions: [String]) -> String {
        didYouMean(nil, suggestions)
    }

    /// `didYouMean(subMessage, suggestions)`: " Did you mean <subMessage> "a" or "b"?".
    package static func didYouMean(_ subMessage: String?, _ suggestions: [String]) -> String {
        var message = " Did you mean "
        if let subMessage { message += subMessage + " " }
        let quoted = suggestions.prefix(5).map { "\"\($0)\"" }
        switch quoted.count {
        case 0: return ""
        case 1: return message + quoted[0] + "?"
        case 2: return message + quoted[0] + " or " + quoted[1] + "?"
        default:
            return message + quoted.dropLast().joined(separator: ", ") + ", or " + quoted[quoted.count - 1] + "?"
        }
    }

    /// graphql-js's `naturalCompare`: digit runs compare as numbers, everything else by UTF-16
    /// code unit; then the shorter string first.
    package static func naturalCompare(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf16)
        let b = Array(b.utf16)
        var ai = 0
        var bi = 0
        func isDigit(_ c: UInt16) -> Bool { c >= 48 && c <= 57 }
        while ai < a.count && bi < b.count {
            var ac = a[ai]
            var bc = b[bi]
            if isDigit(ac) && isDigit(bc) {
                // Mirrors graphql-js exactly, including how it stops on a leading zero.
                var an = 0
                repeat {
                    ai += 1
                    an = an &* 10 &+ Int(ac) - 48
                    ac = ai < a.count ? a[ai] : 0
                } while isDigit(ac) && an > 0
                var bn = 0
                repeat {
                    bi += 1
                    bn = bn &* 10 &+ Int(bc) - 48
                    bc = bi < b.count ? b[bi] : 0
                } while isDigit(bc) && bn > 0
                if an < bn { return -1 }
                if an > bn { return 1 }
            } else {
                if ac < bc { return -1 }
                if ac > bc { return 1 }
                ai += 1
                bi += 1
            }
        }
        return a.count - b.count
    }
}

/// Damerau–Levenshtein distance (optimal string alignment) on lower-cased UTF-16 code units,
/// abandoning as soon as the distance must exceed the threshold, as graphql-js does.
private struct LexicalDistance {
    let input: String
    let inputLowerCase: String
    let inputArray: [UInt16]

    init(_ input: String) {
        self.input = input
        self.inputLowerCase = input.lowercased()
        self.inputArray = Array(inputLowerCase.utf16)
    }

    func measure(_ option: String, threshold: Int) -> Int? {
        if input == option { return 0 }
        let optionLowerCase = option.lowercased()
        if inputLowerCase == optionLowerCase { return 1 }
        var a = Array(optionLowerCase.utf16)
        var b = inputArray
        if a.count < b.count { swap(&a, &b) }
        let aLength = a.count
        let bLength = b.count
        if aLength - bLength > threshold { return nil }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: bLength + 1), count: 3)
        for j in 0...bLength { rows[0][j] = j }
        if aLength == 0 { return rows[0][bLength] <= threshold ? rows[0][bLength] : nil }
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
