// SDL schemas through the schema builder and schema validation. Errors must be located inside their file.
import BatonDiagnostics
import BatonSchema
import BatonValidation
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = SourceFile(path: "schema.graphql", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    guard !SchemaLoader.isIntrospection(source) else { return 0 }
    let (schema, diagnostics) = SchemaLoader.load(sources: [source])
    checkLocated(diagnostics, "schema")
    if let schema { checkLocated(BatonSchemaRules.check(schema), "schema rules") }
    return 0
}
