import BatonCodegen
import BatonIR
import BatonSchema
import BatonSyntax

/// Writes one operation or fragment: its lens classes (nested, one per lens of the model), and a private
/// `Plan` object describing its selections to the runtime (what to normalize, what each read checks) as one text
/// the runtime's `PlanTable` parses, with what a text cannot hold given by index.
///
/// Names inside the file are chosen so nothing shadows anything else: nested classes never take a
/// top-level name or each other's (ignoring case, for class files), and `Plan` takes no accessor's name. `Plan`
/// declares no member of its own and `PlanTable` no property, so its expressions' roots (the file's class, the
/// runtime's types, converters) mean what they mean at the top level. Getters only mention the lens's reader
/// and `Plan`, so an accessor named like a type cannot break them.
final class KotlinDefinitionWriter {
    /// What an operation's variables must not shadow but its plan's and data's names (which vary):
    /// the class's own members, the names its code calls, the runtime's types. Made once.
    static let variableBase = KotlinScope(
        [
            "operationName", "operationType", "document", "operationId", "onError", "rootTypename", "selections",
            "throwOnFieldError", "incrementalDelivery", "variables", "variablesWithDefaults", "clientVariables",
            "resolvedVariables",
            "data", "mapOf", "to", "OPERATION_NAME", "OPERATION_ID", "DOCUMENT", "emptyMap", "Companion",
        ] + IdentifierRules.kotlinRuntimeTypeNames.sorted()
    ).flattened()

    let context: KotlinContext
    /// Nested class names in this file (ignoring case), seeded with every top-level name.
    var nestedTypes: KotlinScope
    /// The plan's lines (`PlanText`), in order: children before the selections that list them.
    var planLines: [String] = []
    /// The lens classes the plan makes by index (`lens(index, reader)`), and each one's index.
    var planLenses: [String] = []
    var planLensIndex: [String: Int] = [:]
    /// The values the plan names by index (`external(index)`): decoders, other fragments' selections.
    var planExternals: [String] = []
    var planExternalIndex: [String: Int] = [:]
    var planName = "Plan"
    /// The last operation's variables as its constructor declares them (a mutation's call takes the same).
    var mutationSignature: [(name: String, type: String)] = []
    /// Plan lines by accessor path from the root lens (a `@refetchable` fragment's connection path).
    var planMemberByPath: [[String]: Int] = [:]
    var accessorPath: [String] = []
    /// Each nested lens class declared so far, by its member index path from the root lens (`MemberDeclaration.
    /// sharedLens` names one): its name from the file's top level, its plan members and its accessor path.
    var sharedLensClasses: [[Int]: (qualified: String, selections: [Int], accessorPath: [String])] = [:]

    /// The root lens's plan lines, in accessor order.
    var rootSelectionNames: [Int] = []
    /// The plan lines of the lens written last (handed from a nested lens to its parent's plan line).
    var lastSelectionNames: [Int] = []

    init(_ context: KotlinContext) {
        self.context = context
        nestedTypes = KotlinScope(base: context.nestedTypeBase)
    }
}
