import BatonDiagnostics
import BatonSchema
import BatonSyntax
import XCTest

@testable import BatonValidation

/// TypeInfo as the rules read it, now that the walk looks each field up once per unit (by parent type and
/// name) and keeps every type reference in the context's storage: the same definitions and types at the
/// first and at every later use, on every parent, for fields, arguments, list items, input fields,
/// variables and type conditions.
final class WalkTypeInfoTests: XCTestCase {
    /// Reports what TypeInfo says at each node it is called on, one diagnostic per node.
    final class TypeInfoRecorder: ValidationRuleBase, ValidationRule {
        static let id = "type-info"
        static let hooks: ValidationHooks = [
            .enterField, .argument, .value, .objectField, .inlineFragment, .variableDefinition, .fragment,
        ]
        let context: ValidationContext
        init(context: ValidationContext) { self.context = context }

        private func note(_ text: String) { report(text, at: Span(start: 0, end: 0)) }
        private var type: String { context.type?.ref.description ?? "-" }
        private var inputType: String { context.inputType?.ref.description ?? "-" }

        override func enterField(_ node: Field) {
            let parent = context.parentType?.name ?? "-"
            let definition = context.fieldDef.map { "\($0.name): \($0.type)" } ?? "-"
            note("field \(parent).\(node.name.value) def \(definition) type \(type)")
        }
        override func enterArgument(_ node: Argument) {
            let argument = context.argument?.name ?? "-"
            note(
                "argument \(node.name.value) def \(argument) input \(inputType) default \(context.defaultValue != nil)")
        }
        override func enterValue(_ node: Value) {
            switch node {
            case .variable, .object, .list:
                note("value input \(inputType) parent \(context.parentInputType?.ref.description ?? "-")")
            default: break
            }
        }
        override func enterObjectField(_ node: ObjectField) {
            note("object field \(node.name.value) input \(inputType) default \(context.defaultValue != nil)")
        }
        override func enterInlineFragment(_ node: InlineFragment) { note("inline type \(type)") }
        override func enterVariableDefinition(_ node: VariableDefinition) { note("variable input \(inputType)") }
        override func enterFragment(_ node: FragmentDefinition) { note("fragment type \(type)") }
    }

    static let document = """
        query Q($flags: [Boolean!], $matrix: [[Boolean]!]!) {
          dog { name owner { name pets { name __typename } } doesKnowCommand(dogCommand: SIT) }
          pets { name ... on Dog { nickname } ... { name } }
          arguments {
            booleanListArgField(booleanListArg: [true, $flags, [false]])
            optionalNonNullBooleanArgField(optionalBooleanArg: true)
            unknownField
          }
          findDog(searchBy: {name: "Rex", owner: $flags}) { name }
          booleanList(booleanListArg: $matrix)
          __typename
        }
        query R { dog { name owner { name } } human { name pets { name } } }
        fragment F on Cat { name nickname }
        """

    func testTypeInfoIsTheSameAtEveryUseOfAFieldOnEveryParent() throws {
        let schema = try TestSupport.loadSchema(TestSupport.fixtures.appendingPathComponent("schema.graphqls").path)
        let parsed = Parser.parse(SourceFile(path: "q.graphql", bytes: Array(Self.document.utf8)))
        let document = try XCTUnwrap(parsed.document)
        let notes = Validator.validate(schema: schema, documents: [document], rules: [TypeInfoRecorder.self])
            .filter { $0.rule == TypeInfoRecorder.id }.map(\.message)
        XCTAssertEqual(
            notes,
            [
                "variable input [Boolean!]",
                "variable input [[Boolean]!]!",
                "field Query.dog def dog: Dog type Dog",
                "field Dog.name def name: String! type String!",
                "field Dog.owner def owner: Human type Human",
                "field Human.name def name: String! type String!",
                "field Human.pets def pets: [Pet!] type [Pet!]",
                "field Pet.name def name: String! type String!",
                "field Pet.__typename def __typename: String! type String!",
                "field Dog.doesKnowCommand def doesKnowCommand: Boolean! type Boolean!",
                "argument dogCommand def dogCommand input DogCommand! default false",
                "field Query.pets def pets: [Pet!] type [Pet!]",
                "field Pet.name def name: String! type String!",
                "inline type Dog",
                "field Dog.nickname def nickname: String type String",
                "inline type Pet",
                "field Pet.name def name: String! type String!",
                "field Query.arguments def arguments: Arguments type Arguments",
                "field Arguments.booleanListArgField def booleanListArgField: [Boolean] type [Boolean]",
                "argument booleanListArg def booleanListArg input [Boolean]! default false",
                "value input Boolean parent [Boolean]!",
                "value input Boolean parent [Boolean]!",
                "value input Boolean parent Boolean",
                "field Arguments.optionalNonNullBooleanArgField def optionalNonNullBooleanArgField: Boolean! type Boolean!",
                "argument optionalBooleanArg def optionalBooleanArg input Boolean! default true",
                "field Arguments.unknownField def - type -",
                "field Query.findDog def findDog: Dog type Dog",
                "argument searchBy def searchBy input FindDogInput default false",
                "value input FindDogInput parent -",
                "object field name input String default false",
                "object field owner input String default false",
                "value input String parent FindDogInput",
                "field Dog.name def name: String! type String!",
                "field Query.booleanList def booleanList: Boolean type Boolean",
                "argument booleanListArg def booleanListArg input [Boolean!] default false",
                "value input [Boolean!] parent -",
                "field Query.__typename def __typename: String! type String!",
                "field Query.dog def dog: Dog type Dog",
                "field Dog.name def name: String! type String!",
                "field Dog.owner def owner: Human type Human",
                "field Human.name def name: String! type String!",
                "field Query.human def human: Human type Human",
                "field Human.name def name: String! type String!",
                "field Human.pets def pets: [Pet!] type [Pet!]",
                "field Pet.name def name: String! type String!",
                "fragment type Cat",
                "field Cat.name def name: String! type String!",
                "field Cat.nickname def nickname: String type String",
            ])
    }

    /// The table answers what `make` said for its key, asks `make` once per key, and tells apart the same
    /// name on different parents and different names on one parent, through its growth.
    func testTheFieldTableKeepsOneLookupPerParentAndName() throws {
        let schema = try TestSupport.loadSchema(TestSupport.fixtures.appendingPathComponent("schema.graphqls").path)
        let parents = schema.types.list
        let definitions = parents.flatMap(\.fields)
        let names = (0..<40).map { "field\($0)" }
        // A made-up answer per key, different for neighbouring parents and names.
        func answer(_ p: Int, _ n: Int) -> FieldDef { definitions[(p * 41 + n * 7) % definitions.count] }
        var table = FieldTable()
        var made = 0
        for round in 0..<2 {
            for (p, parent) in parents.enumerated() {
                for (n, name) in names.enumerated() {
                    let found = table.lookup(name, parent: IdentityTable<Int>.key(parent)) {
                        made += 1
                        return FieldLookup(definition: SchemaReference(answer(p, n)), type: nil)
                    }
                    XCTAssertTrue(found.definition?.object === answer(p, n), "\(parent.name).\(name)")
                }
            }
            XCTAssertEqual(made, parents.count * names.count, "round \(round)")
        }
    }

    /// Values by object identity, through the table's growth; an object never set has none.
    func testTheIdentityTableKeepsAValuePerObject() throws {
        let schema = try TestSupport.loadSchema(TestSupport.fixtures.appendingPathComponent("schema.graphqls").path)
        let definitions = schema.types.list.flatMap(\.fields)
        var table = IdentityTable<Int>()
        for (index, definition) in definitions.enumerated() where index % 2 == 0 {
            table.set(IdentityTable<Int>.key(definition), index)
        }
        for (index, definition) in definitions.enumerated() {
            XCTAssertEqual(table.value(IdentityTable<Int>.key(definition)), index % 2 == 0 ? index : nil)
        }
        XCTAssertGreaterThan(definitions.count, 32)
    }
}
