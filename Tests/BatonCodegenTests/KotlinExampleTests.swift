import BatonCompiler
import Foundation
import XCTest

/// The Examples' generated Kotlin: up to date with `baton gen --lang kotlin --check`, compiled by kotlinc with
/// the runtime support, and reading the seed's fixtures as the Swift example reads them.
final class KotlinExampleTests: XCTestCase {
    static let examples = KotlinProjectSupport.repositoryRoot.appendingPathComponent("Examples")
    static let fixtures = KotlinProjectSupport.repositoryRoot.appendingPathComponent("Tests/BatonRuntimeTests/Fixtures")

    /// `baton gen --lang kotlin --check` finds nothing to do: the checked-in code is what the generator writes.
    func testGeneratedExamplesAreUpToDate() throws {
        for example in ["GitHub", "RickAndMorty"] {
            let outcome = Driver(
                request: ProjectRequest(workingDirectory: Self.examples.appendingPathComponent(example).path),
                targets: .named(["kotlin"])
            ).generate(check: true)
            XCTAssertEqual(outcome.status, .clean, "\(example): \(outcome.diagnostics.map(\.message))")
            XCTAssertEqual(
                outcome.folders.flatMap { $0.report.changes.map(\.path) }, [],
                "\(example): run `baton gen --lang kotlin` in Examples/\(example)")
            XCTAssertGreaterThanOrEqual(outcome.folders.first?.report.unchanged ?? 0, 2)
            // The Examples compile against the repository's runtime (`"runtime": false`): no copy of it.
            let copy = Self.examples.appendingPathComponent("\(example)/Generated/Kotlin/baton/runtime")
            XCTAssertFalse(FileManager.default.fileExists(atPath: copy.path), copy.path)
        }
    }

    /// The guide's Plate 3 through generated Kotlin lenses: character-errors.json committed for TestProfileQuery
    /// shows the three errors under @catch and null on plain reads (TestProfilePlain), conditions-included.json
    /// read through TestConditions finds the origin's dimension: the same text the Swift example's reader prints.
    /// Then the plate's notifications: after an earlier answer with values, the errors response changes exactly
    /// the three failed slots, and answering them again changes them again and @catch sees the values.
    func testGeneratedRickAndMortyReadsTheSeedFixturesAsSwiftDoes() throws {
        let build = try KotlinBuild.shared()
        let earlier = build.folder.appendingPathComponent("earlier.json")
        try Data(Self.earlierAnswer.utf8).write(to: earlier)
        let output = try KotlinTestSupport.runMain(
            "check.seed.ReadSeedFixturesKt", classes: build.classes,
            arguments: [
                Self.fixtures.appendingPathComponent("character-errors.json").path,
                Self.fixtures.appendingPathComponent("conditions-included.json").path, earlier.path,
            ], in: build.folder)
        let parts = output.components(separatedBy: "----\n")
        XCTAssertEqual(parts.first, SwiftExamplesTests.expectedOutput)
        XCTAssertEqual(parts.dropFirst().first, Self.expectedPlateThree)
    }

    /// TestProfileQuery(id: "1")'s earlier answer, with values in the three fields character-errors.json fails.
    static let earlierAnswer = #"""
        {"data":{"character":{"id":"1","name":"Rick Sanchez","origin":{"id":"1","name":"Earth (C-137)"},"status":"Alive",
        "image":"https://rickandmortyapi.com/api/character/avatar/1.jpeg",
        "location":{"id":"20","name":"Earth (Replacement Dimension)","dimension":"Replacement Dimension"},
        "gender":"Male","species":"Human","type":null}}}
        """#

    static let expectedPlateThree = """
        Committed the earlier answer: 15 slots changed
        Notified Character:1.gender Character:1.image Location:20.name
        image (@catch): failure: image service unavailable (at character.image)
        gender (@catch): failure: gender is private (at character.gender)
        location.name (@catch): failure: location name redacted (at character.location.name)
        Notified Character:1.gender Character:1.image Location:20.name
        image (@catch): success: https://rickandmortyapi.com/api/character/avatar/1.jpeg
        gender (@catch): success: Male
        location.name (@catch): success: Earth (Replacement Dimension)

        """

    /// Reads the fixtures through the generated lenses of Examples/RickAndMorty and prints what it sees, line for
    /// line as the Swift example's reader does; then Plate 3's notifications after a `----` line.
    static let readerProgram = #"""
        package check.seed

        import baton.runtime.FieldResult
        import baton.runtime.RecordStore
        import com.example.rickandmorty.TestConditions
        import com.example.rickandmorty.TestProfilePlain
        import com.example.rickandmorty.TestProfileQuery
        import java.io.File

        fun text(value: String?): String = value ?: "nil"

        fun text(result: FieldResult<String?>): String = when (result) {
            is FieldResult.Success -> "success: " + text(result.value)
            is FieldResult.Failure -> "failure: " + result.errors.errors.joinToString("; ") { it.toString() }
        }

        fun printCaught(store: RecordStore, profile: TestProfileQuery) {
            val character = store.read(profile).character ?: return
            println("image (@catch): " + text(character.image))
            println("gender (@catch): " + text(character.gender))
            println("location.name (@catch): " + text(character.location?.name ?: FieldResult.Success(null)))
        }

        fun main(args: Array<String>) {
            val store = RecordStore()
            val profile = TestProfileQuery(id = "1")
            store.commit(profile, File(args[0]).readText())
            println("TestProfileQuery(id: \"1\") with character-errors.json")
            val character = store.read(profile).character
            if (character != null) {
                println("name: " + text(character.name))
                println("origin.name: " + text(character.origin?.name))
                println("status: " + text(character.status))
                println("image (@catch): " + text(character.image))
                println("gender (@catch): " + text(character.gender))
                println("location.name (@catch): " + text(character.location?.name ?: FieldResult.Success(null)))
                println("location.dimension: " + text(character.location?.dimension))
                println("type: " + text(character.type))
            }
            println("TestProfilePlain(id: \"1\"), the same fields without @catch")
            val plain = store.read(TestProfilePlain(id = "1")).character
            if (plain != null) {
                println("image: " + text(plain.image))
                println("gender: " + text(plain.gender))
                println("location.name: " + text(plain.location?.name))
            }
            val conditions = TestConditions(id = "1", withOrigin = true, hideStatus = false)
            store.commit(conditions, File(args[1]).readText())
            println("TestConditions(id: \"1\", withOrigin: true, hideStatus: false) with conditions-included.json")
            val conditioned = store.read(conditions).character
            if (conditioned != null) {
                println("name: " + text(conditioned.name))
                println("origin.dimension: " + text(conditioned.origin?.dimension))
                println("status: " + text(conditioned.status))
            }

            println("----")
            val plate = RecordStore()
            val earlier = File(args[2]).readText()
            println("Committed the earlier answer: " + plate.commit(profile, earlier).changed.size + " slots changed")
            println("Notified " + plate.commit(profile, File(args[0]).readText()).changedDescription)
            printCaught(plate, profile)
            println("Notified " + plate.commit(profile, earlier).changedDescription)
            printCaught(plate, profile)
        }
        """#
}
