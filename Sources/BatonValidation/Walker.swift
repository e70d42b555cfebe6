import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// The one walk over a validation unit: visits every node in graphql-js's order, keeps the
/// context's type information current (graphql-js's `TypeInfo.enter` before the rules' `enter`
/// hooks, `TypeInfo.leave` after their `leave` hooks), and calls every rule at every node.
struct Walker {
    let context: ValidationContext
    let rules: [any ValidationRule]
    /// The rules to call for each hook: those that declare it in `hooks` (every rule in a debug
    /// build, which checks the declarations instead).
    private let hooked: HookedRules
    /// The field hooks of the definition being walked: `hooked`'s, without the rules declaring
    /// `.fieldPerDefinition` whose `fieldHooksActive` is false there.
    private var fieldHooks: FieldHooks
    /// Which `.fieldPerDefinition` rules are active (bit i for `hooked.perDefinition[i]`) in the
    /// definition `fieldHooks` was made for.
    private var fieldHooksActive: UInt64
    /// The field hooks made so far, by the active rules' bits (a few combinations per unit).
    private var fieldHooksByActivity: [(active: UInt64, hooks: FieldHooks)] = []
    let schema: GraphQLSchema
    /// The context's TypeInfo state.
    private let info: UnsafeMutablePointer<TypeInfo>
    /// Nesting deeper than this is not walked (the parser's own limit is lower; this only guards
    /// the stack against hand-built documents).
    static let maximumDepth = 2_000
    private var depth = 0
    private var reportedDepth = false
    /// The context's response-path tracker, when a rule that reads it runs.
    private let responsePaths: ResponsePathTracker?

    init(context: ValidationContext, rules: [any ValidationRule]) {
        self.context = context
        self.rules = rules
        self.hooked = HookedRules(rules, everyHook: Validator.callsEveryHook)
        self.fieldHooks = hooked.fieldHooks
        self.fieldHooksActive = UInt64.max
        self.info = context.info
        // TypeInfo's stacks grow and shrink at every node: reserve once per unit.
        info.pointee.typeStack.reserveCapacity(64)
        info.pointee.parentTypeStack.reserveCapacity(64)
        info.pointee.inputTypeStack.reserveCapacity(32)
        info.pointee.fieldDefStack.reserveCapacity(64)
        info.pointee.defaultValueStack.reserveCapacity(32)
        self.schema = context.schema
        self.responsePaths = rules.contains { $0 is any ResponsePathRule } ? context.responsePaths : nil
    }

    mutating func walkUnit() {
        for rule in hooked.document { call(rule, .document) { rule.enterDocument() } }
        for (index, entry) in context.definitions.enumerated() {
            context.currentDefinitionIndex = index
            context.currentFile = entry.file
            context.currentFileIndex = entry.fileIndex
            switch entry.definition {
            case .operation(let node): walkOperation(node)
            case .fragment(let node): walkFragment(node)
            default: break  // type-system definitions are reported by executable-definitions
            }
        }
        context.walkFinished = true
        for rule in hooked.document { call(rule, .document) { rule.leaveDocument() } }
    }

    // MARK: Definitions

    private mutating func walkOperation(_ node: OperationDefinition) {
        let root = schema.rootType(for: node.operation)
        info.pointee.typeStack.append(
            root.flatMap { $0.kind == .object ? ResolvedType(ref: .named($0.name), named: $0) : nil })
        responsePaths?.begin(anchor: BatonDirectives.headSpan(of: node))
        for rule in hooked.operation { call(rule, .operation) { rule.enterOperation(node) } }
        selectFieldHooks()
        for variable in node.variableDefinitions { walkVariableDefinition(variable) }
        walkDirectives(node.directives, location: Self.location(of: node.operation))
        walkSelectionSet(node.selectionSet)
        for rule in hooked.operation { call(rule, .operation) { rule.leaveOperation(node) } }
        info.pointee.typeStack.removeLast()
    }

    private mutating func walkFragment(_ node: FragmentDefinition) {
        let type = context.typeFromAST(.named(node.typeCondition))
        info.pointee.typeStack.append(type.flatMap { $0.named.isOutputType ? $0 : nil })
        responsePaths?.begin(anchor: node.name.span)
        for rule in hooked.fragment { call(rule, .fragment) { rule.enterFragment(node) } }
        selectFieldHooks()
        walkNamedType(node.typeCondition)
        walkDirectives(node.directives, location: .fragmentDefinition)
        walkSelectionSet(node.selectionSet)
        for rule in hooked.fragment { call(rule, .fragment) { rule.leaveFragment(node) } }
        info.pointee.typeStack.removeLast()
    }

    private mutating func walkVariableDefinition(_ node: VariableDefinition) {
        let type = context.typeFromAST(node.type)
        info.pointee.inputTypeStack.append(type.flatMap { $0.named.isInputType ? $0 : nil })
        info.pointee.insideVariableDefinition = true
        for rule in hooked.variableDefinition { call(rule, .variableDefinition) { rule.enterVariableDefinition(node) } }
        walkTypeReference(node.type)
        if let value = node.defaultValue { walkValue(value) }
        walkDirectives(node.directives, location: .variableDefinition)
        for rule in hooked.variableDefinition { call(rule, .variableDefinition) { rule.leaveVariableDefinition(node) } }
        info.pointee.insideVariableDefinition = false
        info.pointee.inputTypeStack.removeLast()
    }

    private func walkTypeReference(_ node: TypeReference) {
        switch node {
        case .named(let named): walkNamedType(named)
        case .list(let inner, _), .nonNull(let inner, _): walkTypeReference(inner)
        }
    }

    private func walkNamedType(_ node: NamedType) {
        for rule in hooked.namedType { call(rule, .namedType) { rule.enterNamedType(node) } }
    }

    // MARK: Selections

    private mutating func walkSelectionSet(_ node: SelectionSet) {
        guard enterNesting(at: node.span) else { return }
        defer { depth -= 1 }
        let named = context.type?.named
        info.pointee.parentTypeStack.append(SchemaReference(named.flatMap { $0.isComposite ? $0 : nil }))
        for rule in hooked.selectionSet { call(rule, .selectionSet) { rule.enterSelectionSet(node) } }
        for selection in node.selections {
            switch selection {
            case .field(let field): walkField(field)
            case .fragmentSpread(let spread): walkFragmentSpread(spread)
            case .inlineFragment(let inline): walkInlineFragment(inline)
            }
        }
        for rule in hooked.selectionSet { call(rule, .selectionSet) { rule.leaveSelectionSet(node) } }
        info.pointee.parentTypeStack.removeLast()
    }

    private mutating func walkField(_ node: Field) {
        var fieldDef: FieldDef?
        var fieldType: ResolvedType?
        if let parent = context.parentType {
            fieldDef = context.fieldDefinition(node.name.value, on: parent)
            if let fieldDef, let resolved = context.resolve(fieldDef.type), resolved.named.isOutputType {
                fieldType = resolved
            }
        }
        info.pointee.fieldDefStack.append(SchemaReference(fieldDef))
        info.pointee.typeStack.append(fieldType)
        responsePaths?.enterField(node)
        // Most fields have no directives: the rules that look only at those with some are not called.
        let withDirectives = !node.directives.isEmpty
        let enterRules = withDirectives ? fieldHooks.enter : fieldHooks.enterWithoutDirectives
        for rule in enterRules { callField(rule, node, .enterField) { rule.enterField(node) } }
        for argument in node.arguments { walkArgument(argument) }
        walkDirectives(node.directives, location: .field)
        if let selectionSet = node.selectionSet { walkSelectionSet(selectionSet) }
        let leaveRules = withDirectives ? fieldHooks.leave : fieldHooks.leaveWithoutDirectives
        for rule in leaveRules { callField(rule, node, .leaveField) { rule.leaveField(node) } }
        responsePaths?.leaveField()
        info.pointee.typeStack.removeLast()
        info.pointee.fieldDefStack.removeLast()
    }

    private mutating func walkFragmentSpread(_ node: FragmentSpread) {
        for rule in hooked.fragmentSpread { call(rule, .fragmentSpread) { rule.enterFragmentSpread(node) } }
        walkDirectives(node.directives, location: .fragmentSpread)
        for rule in hooked.fragmentSpread { call(rule, .fragmentSpread) { rule.leaveFragmentSpread(node) } }
    }

    private mutating func walkInlineFragment(_ node: InlineFragment) {
        let type: ResolvedType?
        if let condition = node.typeCondition {
            type = context.typeFromAST(.named(condition))
        } else if let current = context.type {
            type = ResolvedType(ref: .named(current.named.name), named: current.named)
        } else {
            type = nil
        }
        info.pointee.typeStack.append(type.flatMap { $0.named.isOutputType ? $0 : nil })
        for rule in hooked.inlineFragment { call(rule, .inlineFragment) { rule.enterInlineFragment(node) } }
        if let condition = node.typeCondition { walkNamedType(condition) }
        walkDirectives(node.directives, location: .inlineFragment)
        walkSelectionSet(node.selectionSet)
        for rule in hooked.inlineFragment { call(rule, .inlineFragment) { rule.leaveInlineFragment(node) } }
        info.pointee.typeStack.removeLast()
    }

    // MARK: Directives and arguments

    private mutating func walkDirectives(_ nodes: [Directive], location: DirectiveLocation) {
        guard !nodes.isEmpty else { return }
        for rule in hooked.directives { call(rule, .directives) { rule.enterDirectives(nodes, location: location) } }
        for node in nodes {
            info.pointee.directiveDef = schema.directive(named: node.name.value)
            for rule in hooked.directive { call(rule, .directive) { rule.enterDirective(node, location: location) } }
            for argument in node.arguments { walkArgument(argument) }
            for rule in hooked.directive { call(rule, .directive) { rule.leaveDirective(node, location: location) } }
            info.pointee.directiveDef = nil
        }
    }

    private mutating func walkArgument(_ node: Argument) {
        // As graphql-js: an unknown directive's arguments are looked up on the enclosing field.
        var argumentDef: InputValue?
        if let directive = info.pointee.directiveDef {
            argumentDef = directive.argument(named: node.name.value)
        } else if let field = context.fieldDef {
            argumentDef = field.argument(named: node.name.value)
        }
        info.pointee.argumentDef = argumentDef
        info.pointee.defaultValueStack.append(argumentDef?.defaultValue)
        info.pointee.inputTypeStack.append(
            argumentDef.flatMap { context.resolve($0.type) }.flatMap { $0.named.isInputType ? $0 : nil })
        for rule in hooked.argument { call(rule, .argument) { rule.enterArgument(node) } }
        walkValue(node.value)
        for rule in hooked.argument { call(rule, .argument) { rule.leaveArgument(node) } }
        info.pointee.argumentDef = nil
        info.pointee.defaultValueStack.removeLast()
        info.pointee.inputTypeStack.removeLast()
    }

    // MARK: Values

    private mutating func walkValue(_ node: Value) {
        switch node {
        case .list(let values, let span):
            guard enterNesting(at: span) else { return }
            defer { depth -= 1 }
            let listType = context.inputType.map { ResolvedType(ref: $0.ref.nullable, named: $0.named) }
            var itemType: ResolvedType?
            if let listType {
                if case .list(let inner) = listType.ref {
                    itemType = ResolvedType(ref: inner, named: listType.named)
                } else {
                    itemType = listType
                }
            }
            info.pointee.defaultValueStack.append(nil)
            info.pointee.inputTypeStack.append(itemType)
            for rule in hooked.value { call(rule, .value) { rule.enterValue(node) } }
            for value in values { walkValue(value) }
            for rule in hooked.value { call(rule, .value) { rule.leaveValue(node) } }
            info.pointee.defaultValueStack.removeLast()
            info.pointee.inputTypeStack.removeLast()
        case .object(let fields, let span):
            guard enterNesting(at: span) else { return }
            defer { depth -= 1 }
            for rule in hooked.value { call(rule, .value) { rule.enterValue(node) } }
            for field in fields { walkObjectField(field) }
            for rule in hooked.value { call(rule, .value) { rule.leaveValue(node) } }
        case .enumValue(let name):
            if let type = context.inputType?.named, type.kind == .enumType {
                info.pointee.enumValueDef = type.enumValue(named: name.value)
            } else {
                info.pointee.enumValueDef = nil
            }
            for rule in hooked.value { call(rule, .value) { rule.enterValue(node) } }
            for rule in hooked.value { call(rule, .value) { rule.leaveValue(node) } }
            info.pointee.enumValueDef = nil
        case .variable(let variable):
            context.recordVariableUsage(variable)
            for rule in hooked.value { call(rule, .value) { rule.enterValue(node) } }
            for rule in hooked.value { call(rule, .value) { rule.leaveValue(node) } }
        default:
            for rule in hooked.value { call(rule, .value) { rule.enterValue(node) } }
            for rule in hooked.value { call(rule, .value) { rule.leaveValue(node) } }
        }
    }

    private mutating func walkObjectField(_ node: ObjectField) {
        var inputField: InputValue?
        if let objectType = context.inputType?.named, objectType.kind == .inputObject {
            inputField = objectType.inputField(named: node.name.value)
        }
        info.pointee.defaultValueStack.append(inputField?.defaultValue)
        info.pointee.inputTypeStack.append(
            inputField.flatMap { context.resolve($0.type) }.flatMap { $0.named.isInputType ? $0 : nil })
        for rule in hooked.objectField { call(rule, .objectField) { rule.enterObjectField(node) } }
        walkValue(node.value)
        for rule in hooked.objectField { call(rule, .objectField) { rule.leaveObjectField(node) } }
        info.pointee.defaultValueStack.removeLast()
        info.pointee.inputTypeStack.removeLast()
    }

    // MARK: Helpers

    /// Calls one rule's hook. A debug build calls every rule's hooks and reports an overridden
    /// hook the rule does not declare (a default hook notes that it ran; an override does not).
    @inline(__always)
    private func call(_ rule: any ValidationRule, _ hook: ValidationHooks, _ body: () -> Void) {
        #if DEBUG
            if !type(of: rule).hooks.isDisjoint(with: hook) {
                body()
                return
            }
            context.defaultHookRan = false
            body()
            if !context.defaultHookRan {
                let id = type(of: rule).id
                if context.undeclaredHooks.insert("\(id) \(hook.rawValue)").inserted {
                    context.report(
                        "Rule \(id) overrides a walker hook (ValidationHooks rawValue \(hook.rawValue)) it does not declare in `hooks`.",
                        rule: "validation-hooks", places: [])
                }
            }
        #else
            body()
        #endif
    }

    /// Calls one rule's field hook (`side` is `.enterField` or `.leaveField`). A debug build calls
    /// a rule declared `.fieldWithDirectives` on every field, and reports it if it reports on a field
    /// without directives (the walk would have skipped it there); it calls a `.fieldPerDefinition`
    /// rule in every definition, and reports it if it reports where its `fieldHooksActive` was false.
    @inline(__always)
    private func callField(_ rule: any ValidationRule, _ node: Field, _ side: ValidationHooks, _ body: () -> Void) {
        #if DEBUG
            let hooks = type(of: rule).hooks
            let id = type(of: rule).id
            if hooks.contains(.fieldPerDefinition), !rule.fieldHooksActive {
                let before = context.diagnostics.count
                body()
                if context.diagnostics.count != before,
                    context.undeclaredHooks.insert("\(id) fieldPerDefinition").inserted
                {
                    context.report(
                        "Rule \(id) declares `fieldPerDefinition` but reported in a definition where it was not active.",
                        rule: "validation-hooks", places: [])
                }
                return
            }
            if hooks.isDisjoint(with: [.field, side]), hooks.contains(.fieldWithDirectives) {
                let before = context.diagnostics.count
                body()
                if node.directives.isEmpty, context.diagnostics.count != before,
                    context.undeclaredHooks.insert("\(id) fieldWithDirectives").inserted
                {
                    context.report(
                        "Rule \(id) declares `fieldWithDirectives` but reported on a field without directives.",
                        rule: "validation-hooks", places: [])
                }
                return
            }
        #endif
        call(rule, [.field, side], body)
    }

    /// Leaves out of `fieldHooks` the `.fieldPerDefinition` rules that are not active in the
    /// definition just entered; the lists are made once per combination of active rules (a rule
    /// past the 64th is always called). A debug build keeps every rule (`callField` checks them).
    private mutating func selectFieldHooks() {
        #if !DEBUG
            guard !hooked.perDefinition.isEmpty else { return }
            var active: UInt64 = 0
            for (index, rule) in hooked.perDefinition.enumerated() where index >= 64 || rule.fieldHooksActive {
                active |= 1 << UInt64(min(index, 63))
            }
            guard active != fieldHooksActive else { return }
            fieldHooksActive = active
            if let made = fieldHooksByActivity.first(where: { $0.active == active }) {
                fieldHooks = made.hooks
                return
            }
            var inactive: Set<ObjectIdentifier> = []
            for (index, rule) in hooked.perDefinition.enumerated() where active & (1 << UInt64(min(index, 63))) == 0 {
                inactive.insert(ObjectIdentifier(rule))
            }
            fieldHooks = hooked.fieldHooks.without(inactive)
            fieldHooksByActivity.append((active, fieldHooks))
        #endif
    }

    private mutating func enterNesting(at span: Span) -> Bool {
        depth += 1
        // A debug build spends about 4 KiB of stack per level: a 512 KiB thread (Dispatch, Swift
        // Concurrency) holds about 100, so past a few levels the stack itself is checked too.
        if depth <= Self.maximumDepth && (depth < Self.stackCheckDepth || hasStackRoom()) { return true }
        depth -= 1
        if !reportedDepth {
            reportedDepth = true
            let limit =
                depth >= Self.maximumDepth
                ? "more than \(Self.maximumDepth) levels" : "\(depth + 1) levels exhaust this thread's stack"
            context.report(
                "The document is nested too deeply to validate (\(limit)).",
                rule: "validation-depth", places: [context.range(span)])
        }
        return false
    }

    /// The depth from which the stack is checked at each level.
    static let stackCheckDepth = 32
    private var stackGuard: StackGuard?

    private mutating func hasStackRoom() -> Bool {
        if stackGuard == nil { stackGuard = StackGuard() }
        return stackGuard?.hasRoom() ?? true
    }

    static func location(of operation: OperationType) -> DirectiveLocation {
        switch operation {
        case .query: .query
        case .mutation: .mutation
        case .subscription: .subscription
        }
    }
}

/// The rules of a walk grouped by the hooks they declare, in the rules' order.
private struct HookedRules {
    var document: [any ValidationRule] = []
    var operation: [any ValidationRule] = []
    var fragment: [any ValidationRule] = []
    var variableDefinition: [any ValidationRule] = []
    var selectionSet: [any ValidationRule] = []
    /// The field hooks, each rule's as it declares them.
    var fieldHooks = FieldHooks()
    /// The rules declaring `.fieldPerDefinition` (in a debug build, none: every rule is called).
    var perDefinition: [any ValidationRule] = []
    var fragmentSpread: [any ValidationRule] = []
    var inlineFragment: [any ValidationRule] = []
    var directives: [any ValidationRule] = []
    var directive: [any ValidationRule] = []
    var argument: [any ValidationRule] = []
    var value: [any ValidationRule] = []
    var objectField: [any ValidationRule] = []
    var namedType: [any ValidationRule] = []

    init(_ rules: [any ValidationRule], everyHook: Bool) {
        for rule in rules {
            #if DEBUG
                let hooks = ValidationHooks.all
            #else
                let hooks = everyHook ? ValidationHooks.all : type(of: rule).hooks
            #endif
            if hooks.contains(.document) { document.append(rule) }
            if hooks.contains(.operation) { operation.append(rule) }
            if hooks.contains(.fragment) { fragment.append(rule) }
            if hooks.contains(.variableDefinition) { variableDefinition.append(rule) }
            if hooks.contains(.selectionSet) { selectionSet.append(rule) }
            if hooks.callsField(withDirectives: true) { fieldHooks.enter.append(rule) }
            if hooks.callsField(withDirectives: false) { fieldHooks.enterWithoutDirectives.append(rule) }
            if hooks.callsLeaveField(withDirectives: true) { fieldHooks.leave.append(rule) }
            if hooks.callsLeaveField(withDirectives: false) { fieldHooks.leaveWithoutDirectives.append(rule) }
            #if !DEBUG
                if hooks.contains(.fieldPerDefinition) { perDefinition.append(rule) }
            #endif
            if hooks.contains(.fragmentSpread) { fragmentSpread.append(rule) }
            if hooks.contains(.inlineFragment) { inlineFragment.append(rule) }
            if hooks.contains(.directives) { directives.append(rule) }
            if hooks.contains(.directive) { directive.append(rule) }
            if hooks.contains(.argument) { argument.append(rule) }
            if hooks.contains(.value) { value.append(rule) }
            if hooks.contains(.objectField) { objectField.append(rule) }
            if hooks.contains(.namedType) { namedType.append(rule) }
        }
    }
}

/// The rules whose `enterField` and `leaveField` hooks are called at a field with directives and at
/// one without, in the rules' order.
private struct FieldHooks {
    var enter: [any ValidationRule] = []
    var enterWithoutDirectives: [any ValidationRule] = []
    var leave: [any ValidationRule] = []
    var leaveWithoutDirectives: [any ValidationRule] = []

    /// The same lists without the given rules.
    func without(_ rules: Set<ObjectIdentifier>) -> FieldHooks {
        func kept(_ list: [any ValidationRule]) -> [any ValidationRule] {
            list.filter { !rules.contains(ObjectIdentifier($0)) }
        }
        return FieldHooks(
            enter: kept(enter), enterWithoutDirectives: kept(enterWithoutDirectives), leave: kept(leave),
            leaveWithoutDirectives: kept(leaveWithoutDirectives))
    }
}
