import Baton
import Foundation

/// A generated lens type whose accessors `make-touch.py` calls.
protocol FuzzTouchable {
    func touchAccessors(_ depth: Int)
}

/// A `Result` read through `@catch`: its value is read too.
protocol FuzzResult {
    var successValue: Any? { get }
}

extension Result: FuzzResult {
    var successValue: Any? { if case .success(let value) = self { value } else { nil } }
}

/// Reads a value an accessor returned: nested lenses' accessors, the items of lists, the value of a result,
/// and the text of scalars (so a bad string would be found).
func touch(_ value: Any, _ depth: Int) {
    guard depth < 64 else { return }
    switch value {
    case let lens as any FuzzTouchable: lens.touchAccessors(depth + 1)
    case let result as any FuzzResult: if let inner = result.successValue { touch(inner, depth + 1) }
    case let text as String: _ = text.utf8.count
    // Arrays and `LensList`s (lists of lenses), item by item.
    case let items as any Collection: touchItems(items, depth + 1)
    default: _ = String(describing: value).count
    }
}

private func touchItems<Items: Collection>(_ items: Items, _ depth: Int) {
    for item in items { touch(item, depth) }
}
