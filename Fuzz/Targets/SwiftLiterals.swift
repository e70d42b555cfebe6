// Swift sources with GraphQL in `@Query`/`@Fragment`/`@Mutation` literals through the extractor and the parser.
// Every literal lies inside the host, and errors in embedded documents are located inside the host file.
import BatonConfig
import BatonDiagnostics
import BatonSyntax
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let host = SourceFile(path: "Hostile.swift", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    let (extracted, diagnostics) = SwiftDocumentExtractor.extract(from: host)
    checkLocated(diagnostics, "extract")
    for document in extracted {
        guard document.literalSpan.start >= 0, document.literalSpan.start <= document.literalSpan.end,
            document.literalSpan.end <= size
        else { violated("a literal outside its file: \(document.literalSpan) of \(size) bytes") }
        for segment in document.source.segments where segment.hostOffset < 0 || segment.hostOffset > size {
            violated("a segment maps outside its host: \(segment.hostOffset) of \(size) bytes")
        }
        checkLocated(Parser.parse(document.source).diagnostics, "parse embedded")
    }
    return 0
}
