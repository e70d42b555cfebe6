import Foundation

// Response bodies committed for the Examples' generated operations (the first byte picks one), then every
// accessor of the generated lenses read. Invariants: the byte and tree commit paths agree with each other and
// with the plain reading of the rules (`ReferenceNormalizer`, from the runtime tests); committing the same body
// again changes no slot; the store's image reads back what was written.
@_spi(Persistence) @testable import Baton

/// One operation: commits a body both ways and reads the data.
struct FuzzOperation {
    let selections: [Selection]
    let variables: [String: JSONValue]
    let root: String
    let commitBytes: (Store, Data) throws(ResponseError) -> CommitResult
    let commitTree: (Store, GraphQLResponse) throws(ResponseError) -> CommitResult
    let read: (Store) -> Void

    init<Operation: GraphQLOperation>(_ operation: Operation) {
        selections = Operation.Data.selections
        variables = operation.resolvedVariables
        root = Operation.rootTypename
        commitBytes = { store, body throws(ResponseError) in try store.commit(bytes: body, for: operation) }
        commitTree = { store, response throws(ResponseError) in try store.commit(response, for: operation) }
        read = { store in
            guard let data = try? store.read(operation) else { return }
            touch(data, 0)
        }
    }
}

nonisolated(unsafe) let operations: [FuzzOperation] = [
    FuzzOperation(TestProfileQuery(id: "1")), FuzzOperation(TestProfilePlain(id: "1")),
    FuzzOperation(TestConditions(id: "1", withOrigin: true, hideStatus: false)),
    FuzzOperation(TestConditions(id: "1", withOrigin: false, hideStatus: true)),
    FuzzOperation(RepositoryQuery(owner: "o", name: "n")),
]

let epoch: @Sendable () -> Date = { Date(timeIntervalSince1970: 0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let operation = operations[Int(data[0]) % operations.count]
    let body = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let bytes = Store(clock: epoch)
    let tree = Store(clock: epoch)
    let byBytes = Result { () throws(ResponseError) in try operation.commitBytes(bytes, body) }
    let byTree = Result { () throws(ResponseError) in
        try operation.commitTree(tree, try GraphQLResponse(bytes: body))
    }
    guard byBytes == byTree else { violated("bytes and tree commits differ: \(byBytes) / \(byTree)") }
    guard bytes.snapshot().records == tree.snapshot().records else { violated("bytes and tree records differ") }
    guard case .success(let result) = byBytes, let response = try? GraphQLResponse(bytes: body) else { return 0 }
    var records: [RecordKey: Record] = [:]
    let reference = ReferenceNormalizer.commit(
        response, selections: operation.selections, variables: operation.variables, rootKey: operation.root,
        rootTypename: operation.root, into: &records, now: 0)
    guard reference == result, records == bytes.snapshot().records else {
        violated("the store and the reference normalizer differ")
    }
    operation.read(bytes)
    guard (try? operation.commitBytes(bytes, body))?.changed.isEmpty == true else {
        violated("committing the same body again changed slots")
    }
    let image = StoreImage.encode(bytes.snapshot().records)
    guard (try? StoreImage.decode(image)) == bytes.snapshot().records else { violated("the image does not read back") }
    return 0
}
