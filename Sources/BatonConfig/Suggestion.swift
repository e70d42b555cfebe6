/// "Did you mean …?" suggestions for misspelt keys, options, rule ids and names.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a likely
    /// typo: at most a third of the word's length (and at least 1) edits away. Ties go to the
    /// earlier candidate, so callers order candidates by preference.
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let limit = max(1, word.count / 3)
        var best: (candidate: String, distance: Int)?
        let lowered = word.lowercased()
        for candidate in candidates {
            // A difference only in case is the most likely typo of all.
            let loweredCandidate = candidate.lowercased()
            var distance = loweredCandidate == lowered ? 0 : editDistance(word, candidate, limit: limit)
            // A word cut short ("warn" for "warning") is as likely as a typo.
            if distance > limit && lowered.count >= 3 && loweredCandidate.hasPrefix(lowered) { distance = limit }
            guard distance <= limit else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// A sentence suffix " Did you mean "x"?" or "".
    package static func didYouMean(_ word: String, in candidates: some Sequence<String>, quote: String = "\"") -> String
    {
        guard let match = closest(to: word, in: candidates), match != word else { return "" }
        return " Did you mean \(quote)\(match)\(quote)?"
    }

    /// Levenshtein distance between two strings (by Unicode scalar), stopping early once every
    /// path exceeds `limit` (the result is then some value greater than `limit`).
    package static func editDistance(_ a: String, _ b: String, limit: Int = .max) -> Int {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        if abs(x.count - y.count) > limit { return limit + 1 }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...y.count {
                let substitution = previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}
