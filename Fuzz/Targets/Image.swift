import Foundation

// Image files through the image decoder. Invariants: whatever decodes encodes to an image that decodes to the
// same records, and encoding is a fixpoint (the same records always make the same bytes).
// With `BATON_FUZZ_WRITE_SEEDS=DIR` it writes seed images made from the runtime tests' fixtures and exits.
@_spi(Persistence) @testable import Baton

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
    -> Int32
{
    guard let directory = ProcessInfo.processInfo.environment["BATON_FUZZ_WRITE_SEEDS"] else { return 0 }
    let root = ProcessInfo.processInfo.environment["BATON_ROOT"] ?? FileManager.default.currentDirectoryPath
    let fixtures = URL(fileURLWithPath: root).appendingPathComponent("Tests/BatonRuntimeTests/Fixtures")
    let store = Store(clock: { Date(timeIntervalSince1970: 1_700_000_000.5) })
    for (index, name) in ["character-errors.json", "conditions-included.json"].enumerated() {
        guard let body = try? Data(contentsOf: fixtures.appendingPathComponent(name)) else { continue }
        _ = try? store.commit(bytes: body, for: TestProfileQuery(id: "1"))
        _ = try? store.commit(bytes: body, for: TestConditions(id: "1", withOrigin: true, hideStatus: false))
        if index == 0 { _ = store.invalidate { key, _ in key == "Location:20" } }
        let encoded = StoreImage.encode(store.snapshot().records)
        try? encoded.write(to: URL(fileURLWithPath: directory).appendingPathComponent("image-\(index).image"))
        // The same as a body, for the mode that puts a correct header in front.
        if let newline = encoded.firstIndex(of: 0x0A) {
            try? (Data([0x01]) + encoded[encoded.index(after: newline)...]).write(
                to: URL(fileURLWithPath: directory).appendingPathComponent("body-\(index).image"))
        }
    }
    _ = try? store.commit(
        bytes: Data(#"{"data":{"price":1.10,"meta":{"b":[1,{"c":null}]},"tags":["a",null]}}"#.utf8),
        selections: [
            .field("price", type: .named("Decimal")), .field("meta", type: .named("JSON")),
            .field("tags", type: .list(.named("String"))),
        ])
    try? StoreImage.encode(store.snapshot().records).write(
        to: URL(fileURLWithPath: directory).appendingPathComponent("image-scalars.image"))
    exit(0)
}

/// A body behind a header that matches it (length and checksum), so mutations reach the records, not only the
/// header check.
func image(ofBody body: Data) -> Data {
    Data("BATON-IMAGE 1 \(body.count) \(String(StoreImage.fnv1a(body), radix: 16))\n".utf8) + body
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    // A first byte of 0x01 marks a body to put behind a correct header; anything else is a whole image file.
    let bytes =
        data[0] == 0x01
        ? image(ofBody: Data(UnsafeBufferPointer(start: data + 1, count: size - 1)))
        : Data(UnsafeBufferPointer(start: data, count: size))
    let decoded: [RecordKey: Record]
    do {
        decoded = try StoreImage.decode(bytes)
    } catch {
        return 0
    }
    let encoded = StoreImage.encode(decoded)
    guard let again = try? StoreImage.decode(encoded) else { violated("a decoded image does not encode readably") }
    guard again == decoded else { violated("an image does not read back what was written") }
    guard StoreImage.encode(again) == encoded else { violated("encoding the same records twice differs") }
    return 0
}
