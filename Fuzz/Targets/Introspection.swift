// Introspection results (JSON) through the introspection schema builder and schema validation. Errors must be
// located inside their file.
import BatonDiagnostics
import BatonSchema
import BatonValidation
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = SourceFile(path: "schema.json", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    let (schema, diagnostics) = SchemaLoader.load(sources: [source])
    checkLocated(diagnostics, "introspection")
    if let schema { checkLocated(BatonSchemaRules.check(schema), "schema rules") }
    return 0
}
