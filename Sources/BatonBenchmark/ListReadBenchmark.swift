import Baton
import Foundation

/// A list of lenses read as generated code reads it since issue 14 (`LensList<NullableItem<T>>?`) and as it read it
/// before (`[T?]?`), side by side in one run: the wrapper a view's `ForEach` needs must cost nothing measurable.
func runListReadBenchmark() {
    print("## Lists of lenses")
    var text = #"{"data":{"results":["#
    let count = 5_000
    for index in 0..<count {
        if index > 0 { text += "," }
        text += index % 50 == 7 ? "null" : #"{"__typename":"Character","id":"\#(index)","name":"Character \#(index)"}"#
    }
    text += "]}}"
    let store = Store()
    _ = try? store.commit(bytes: Data(text.utf8), selections: [.field(ListCharacter.results)])
    let root = Lens(snapshot: store.snapshot(), key: "Query", context: ReadContext())
    let rounds = 200
    var best: [String: Double] = [:]
    var checksum = 0
    for _ in 0..<5 {
        for kind in ["[T?]?", "LensList<NullableItem<T>>?"] {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<rounds {
                if kind == "[T?]?" {
                    let list: [ListCharacter?]? = root.read(ListCharacter.results)
                    for item in list ?? [] { checksum &+= item?.name.utf8.count ?? 1 }
                } else {
                    let list: LensList<NullableItem<ListCharacter>>? = root.read(ListCharacter.results)
                    for item in list ?? .empty { checksum &+= item.name?.utf8.count ?? 1 }
                }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best[kind] = min(best[kind] ?? .infinity, seconds)
        }
    }
    let plain = best["[T?]?"] ?? 0
    let wrapped = best["LensList<NullableItem<T>>?"] ?? 0
    print(
        String(
            format:
                "%d reads of a %d-item list and each item's name: [T?]? %.2f ms, LensList %.2f ms (%.2fx) (checksum %d)",
            rounds, count, plain * 1000, wrapped * 1000, wrapped / plain, checksum))
}

/// `results { id name }`.
private struct ListCharacter: LensType {
    let lens: Lens
    init(lens: Lens) { self.lens = lens }
    static let id = Field.leaf("id", "ID!")
    static let name = Field.leaf("name", "String!")
    static let selections: [Selection] = [.field(id), .field(name)]
    static let results = Field.composite("results", "[Character]", selections)
    var name: String { lens.read(Self.name) }
}
