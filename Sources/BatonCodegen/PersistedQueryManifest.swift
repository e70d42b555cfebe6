import BatonDiagnostics
import BatonIR

/// The persisted-query manifest `baton gen` writes beside the generated code: every operation of the project
/// with the id the generators give it, in Apollo's `apollo-persisted-query-manifest` format (version 1), so a
/// server or a router that loads such manifests can serve the operations by id.
///
/// `id` is the plan's `OperationModel.operationID` (the SHA-256 of the text sent, computed once), the same id
/// the Swift and Kotlin operations carry, so a request by id and the manifest cannot disagree. Operations are in the
/// model's order (sorted by name); the text is pretty-printed with a trailing newline and carries no
/// timestamp, so regeneration is byte-identical.
package enum PersistedQueryManifest {
    /// The manifest's text for a model's operations, with those of its block (`LensModel.block`: each its
    /// summary's id, kind and text) merged in the model's order.
    package static func text(for operations: [OperationModel], block: SummaryBlock? = nil) -> String {
        func entry(id: String, name: String, type: String, body: String) -> JSONOutput {
            .object([("id", .string(id)), ("name", .string(name)), ("type", .string(type)), ("body", .string(body))])
        }
        var entries: [JSONOutput] = []
        entries.reserveCapacity(operations.count + (block?.operations.count ?? 0))
        let taken = block ?? .empty
        let lines = taken.lines
        SummaryBlock.merge(operations, name: \.name, taken.operations, in: lines) { index in
            let operation = operations[index]
            entries.append(
                entry(
                    id: operation.operationID, name: operation.name, type: operation.kind.rawValue,
                    body: operation.documentText))
        } block: { index in
            let line = taken.operations[index]
            let name = lines.name(at: line)
            entries.append(
                entry(
                    id: lines.operationID(at: line), name: name, type: lines.kind(at: line).rawValue,
                    body: taken.operationTexts?[name] ?? ""))
        }
        return JSONOutput.object([
            ("format", .string("apollo-persisted-query-manifest")),
            ("version", .number(1)),
            ("operations", .array(entries)),
        ]).rendered()
    }

    /// Each operation's text by name, read from a manifest this type wrote (`text(for:)`); nil for
    /// anything else.
    package static func texts(_ bytes: [UInt8]) -> [String: String]? {
        guard case .success(let value) = JSONParser.parse(bytes),
            value["format"]?.stringValue == "apollo-persisted-query-manifest",
            let operations = value["operations"]?.arrayValue
        else { return nil }
        var texts: [String: String] = [:]
        for operation in operations {
            guard let name = operation["name"]?.stringValue, let body = operation["body"]?.stringValue,
                texts.updateValue(body, forKey: name) == nil
            else { return nil }
        }
        return texts
    }
}
