import BatonCompiler
import BatonDeclarations
import Foundation
import Testing

/// Equal nested lenses are one type in both languages (issue 34): the tree decides it once (`LensSharing`,
/// `MemberDeclaration.sharedLens`), Swift prints a shared lens as a typealias to the earlier struct and Kotlin types
/// the property with the earlier class; neither declares a second copy. (`LensSharingTests` proves the decision; the
/// generator fixture `shared-lenses` shows the text and compiles it with swiftc and kotlinc.)
@Suite struct KotlinSharedLensTests {
    /// The fixture's generated file for one language (`swift` or `kotlin` output targets).
    static func generated(_ language: String) throws -> String {
        let (project, _) = try DeclarationTreeTests.generated("shared-lenses.graphql")
        let files = project.compilation.outputs.filter { $0.target.name.hasPrefix(language) }.flatMap(\.files)
            .filter { $0.path.hasPrefix("SharedLenses.") }
        return try #require(files.first, "no \(language) file for SharedLenses").contents
    }

    /// Both printers declare a lens type for exactly the nested lenses the tree does not share, in the same order,
    /// and print every shared one as the earlier type the tree names: Swift with a typealias of the shared name,
    /// Kotlin as a property of that class (named from the file's top level).
    @Test func bothPrintersDeclareExactlyTheLensesTheTreeDoesNotShare() throws {
        let (shared, declared) = LensSharingTests.walk(try LensSharingTests.sharedLenses())
        #expect(!shared.isEmpty)
        let expected = ["Data"] + declared.map { String($0.split(separator: ".").last!) }

        let swift = try Self.generated("swift")
        let structs = swift.matches(of: /\bstruct (\w+): Baton\.(?:Conditional|Fragment)?LensType\b/).map {
            String($0.output.1)
        }
        #expect(structs == expected)

        let kotlin = try Self.generated("kotlin")
        // Kotlin's nested class names are unique in the file (a `_` per earlier claim of the name, ignoring case).
        // A lens class extends `PlanTable.Lens` over its file's plan, or keeps its own reader when a member is named
        // `reader`.
        let classes = kotlin.matches(
            of:
                /\bclass (\w+?)_* internal constructor\((?:reader: RecordReader\) : PlanTable\.Lens\(reader, \w+\)|private val \w+: RecordReader\))/
        )
        .map { String($0.output.1) }
        #expect(classes == expected)

        // Each shared lens: Swift names it (a typealias to the earlier struct), Kotlin refers to the earlier class.
        let aliases = swift.matches(of: /typealias (\w+) = SharedLenses\.([\w.]+)\n/).map {
            (String($0.output.1), String($0.output.2))
        }
        #expect(aliases.count == shared.count)
        for (name, target) in shared.sorted(by: { $0.key < $1.key }) {
            let last = String(name.split(separator: ".").last!)
            #expect(aliases.contains { $0 == (last, target) }, "Swift: \(name) is not a typealias to \(target)")
        }
        let references = kotlin.matches(of: /val \w+: (?:List<)?SharedLenses\.([\w.]+)/).map { String($0.output.1) }
        #expect(references.sorted() == shared.values.sorted(), "Kotlin's references to earlier classes")
    }
}
