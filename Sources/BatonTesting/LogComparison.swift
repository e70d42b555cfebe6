import Baton

/// Comparing logged events (`MemoryLog.lines`, `LogEvent.description`) with the events a test expects.
public enum LogComparison {
    /// A line diff of `actual` against `expected` (`-` expected only, `+` logged only, two spaces both), or nil
    /// when they are equal.
    public static func difference(_ actual: [String], _ expected: [String]) -> String? {
        if actual == expected { return nil }
        let diff = actual.difference(from: expected)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in diff {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var lines: [String] = []
        var old = 0
        var new = 0
        while old < expected.count || new < actual.count {
            if old < expected.count, removed.contains(old) {
                lines.append("- " + expected[old])
                old += 1
            } else if new < actual.count, inserted.contains(new) {
                lines.append("+ " + actual[new])
                new += 1
            } else {
                if new < actual.count { lines.append("  " + actual[new]) }
                old += 1
                new += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Throws the diff unless `actual` equals `expected`.
    public static func expect(_ actual: [String], equal expected: [String]) throws {
        if let difference = difference(actual, expected) {
            throw TestKitFailure("the log differs (- expected, + logged):\n" + difference)
        }
    }

    /// Throws unless every line of `expected` is in `actual`, in order.
    public static func expect(_ actual: [String], contain expected: [String]) throws {
        var remaining = actual[...]
        for line in expected {
            guard let index = remaining.firstIndex(of: line) else {
                throw TestKitFailure(
                    "the log lacks \(line) (in order); logged:\n" + actual.map { "  " + $0 }.joined(separator: "\n"))
            }
            remaining = remaining[(index + 1)...]
        }
    }

    /// The lines of `events` named `name` (`requiredFieldNull`, `fetchFailed`).
    public static func lines(_ events: [LogEvent], named name: String) -> [String] {
        events.filter { $0.name == name }.map(\.description)
    }
}
