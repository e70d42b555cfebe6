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
        // A class cast, not `is any ResponsePathRule`: a protocol cast scans every conformance the process
        // has, once per rule type (3 M instructions a check); every such rule derives from the base class.
        self.responsePaths = rules.contains { $0 is ResponsePathRuleBase } ? context.responsePaths : nil
    }

    mutating func walkUnit() {
        for rule in hooked.document { call(rule, .document) { $0.enterDocument() } }
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
        for rule in hooked.document { call(rule, .document) { $0.leaveDocument() } }
    }

    // MARK: Definitions

    private mutating func walkOperation(_ node: OperationDefinition) {
        let root = schema.rootType(for: node.operation)
        info.pointee.typeStack.append(root.flatMap { $0.kind == .object ? context.namedType($0) : nil })
        responsePaths?.begin(anchor: BatonDirectives.headSpan(of: node))
        for rule in hooked.operation { call(rule, .operation) { $0.enterOperation(node) } }
        selectFieldHooks()
        for variable in node.variableDefinitions { walkVariableDefinition(variable) }
        walkDirectives(node.directives, location: Self.location(of: node.operation))
        walkSelectionSet(node.selectionSet)
        for rule in hooked.operation { call(rule, .operation) { $0.leaveOperation(node) } }
        info.pointee.typeStack.removeLast()
    }

    private mutating func walkFragment(_ node: FragmentDefinition) {
        let type = context.typeFromAST(node.typeCondition)
        info.pointee.typeStack.append(type.flatMap { $0.named.isOutputType ? $0 : nil })
        responsePaths?.begin(anchor: node.name.span)
        for rule in hooked.fragment { call(rule, .fragment) { $0.enterFragment(node) } }
        selectFieldHooks()
        walkNamedType(node.typeCondition)
        walkDirectives(node.directives, location: .fragmentDefinition)
        walkSelectionSet(node.selectionSet)
        for rule in hooked.fragment { call(rule, .fragment) { $0.leaveFragment(node) } }
        info.pointee.typeStack.removeLast()
    }

    private mutating func walkVariableDefinition(_ node: VariableDefinition) {
        let type = context.type(of: node)
        info.pointee.inputTypeStack.append(type.flatMap { $0.named.isInputType ? $0 : nil })
        info.pointee.insideVariableDefinition = true
        for rule in hooked.variableDefinition { call(rule, .variableDefinition) { $0.enterVariableDefinition(node) } }
        walkTypeReference(node.type)
        if let value = node.defaultValue { walkValue(value) }
        walkDirectives(node.directives, location: .variableDefinition)
        for rule in hooked.variableDefinition { call(rule, .variableDefinition) { $0.leaveVariableDefinition(node) } }
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
        for rule in hooked.namedType { call(rule, .namedType) { $0.enterNamedType(node) } }
    }

    // MARK: Selections

    private mutating func walkSelectionSet(_ node: SelectionSet) {
        guard enterNesting(at: node.span) else { return }
        defer { depth -= 1 }
        let named = context.type?.named
        info.pointee.parentTypeStack.append(SchemaReference(named.flatMap { $0.isComposite ? $0 : nil }))
        for rule in hooked.selectionSet { call(rule, .selectionSet) { $0.enterSelectionSet(node) } }
        for selection in node.selections {
            switch selection {
            case .field(let field): walkField(field)
            case .fragmentSpread(let spread): walkFragmentSpread(spread)
            case .inlineFragment(let inline): walkInlineFragment(inline)
            }
        }
        for rule in hooked.selectionSet { call(rule, .selectionSet) { $0.leaveSelectionSet(node) } }
        info.pointee.parentTypeStack.removeLast()
    }

    private mutating func walkField(_ node: Field) {
        var found = FieldLookup(definition: nil, type: nil)
        if case .some(.some(let parent)) = info.pointee.parentTypeStack.last {
            found = context.field(node.name.value, on: parent)
        }
        info.pointee.fieldDefStack.append(found.definition)
        info.pointee.typeStack.append(found.type)
        responsePaths?.enterField(node)
        // Most fields have no directives: the rules that look only at those with some are not called.
        let withDirectives = !node.directives.isEmpty
        let enterRules = withDirectives ? fieldHooks.enter : fieldHooks.enterWithoutDirectives
        for rule in enterRules { callField(rule, node, .enterField) { $0.enterField(node) } }
        for argument in node.arguments { walkArgument(argument) }
        walkDirectives(node.directives, location: .field)
        if let selectionSet = node.selectionSet { walkSelectionSet(selectionSet) }
        let leaveRules = withDirectives ? fieldHooks.leave : fieldHooks.leaveWithoutDirectives
        for rule in leaveRules { callField(rule, node, .leaveField) { $0.leaveField(node) } }
        responsePaths?.leaveField()
        info.pointee.typeStack.removeLast()
        info.pointee.fieldDefStack.removeLast()
    }

    private mutating func walkFragmentSpread(_ node: FragmentSpread) {
        for rule in hooked.fragmentSpread { call(rule, .fragmentSpread) { $0.enterFragmentSpread(node) } }
        walkDirectives(node.directives, location: .fragmentSpread)
        for rule in hooked.fragmentSpread { call(rule, .fragmentSpread) { $0.leaveFragmentSpread(node) } }
    }

    private mutating func walkInlineFragment(_ node: InlineFragment) {
        let type: ResolvedType?
        if let condition = node.typeCondition {
            type = context.typeFromAST(condition)
        } else if let current = context.type {
            type = context.namedType(current.named)
        } else {
            type = nil
        }
        info.pointee.typeStack.append(type.flatMap { $0.named.isOutputType ? $0 : nil })
        for rule in hooked.inlineFragment { call(rule, .inlineFragment) { $0.enterInlineFragment(node) } }
        if let condition = node.typeCondition { walkNamedType(condition) }
        walkDirectives(node.directives, location: .inlineFragment)
        walkSelectionSet(node.selectionSet)
        for rule in hooked.inlineFragment { call(rule, .inlineFragment) { $0.leaveInlineFragment(node) } }
        info.pointee.typeStack.removeLast()
    }

    // MARK: Directives and arguments

    private mutating func walkDirectives(_ nodes: [Directive], location: DirectiveLocation) {
        guard !nodes.isEmpty else { return }
        for rule in hooked.directives { call(rule, .directives) { $0.enterDirectives(nodes, location: location) } }
        for node in nodes {
            info.pointee.directiveDef = SchemaReference(schema.directive(named: node.name.value))
            for rule in hooked.directive { call(rule, .directive) { $0.enterDirective(node, location: location) } }
            for argument in node.arguments { walkArgument(argument) }
            for rule in hooked.directive { call(rule, .directive) { $0.leaveDirective(node, location: location) } }
            info.pointee.directiveDef = nil
        }
    }

    private mutating func walkArgument(_ node: Argument) {
        // As graphql-js: an unknown directive's arguments are looked up on the enclosing field.
        var argumentDef: InputValue?
        if let directive = context.directive {
            argumentDef = directive.argument(named: node.name.value)
        } else if let field = context.fieldDef {
            argumentDef = field.argument(named: node.name.value)
        }
        info.pointee.argumentDef = SchemaReference(argumentDef)
        info.pointee.defaultValueStack.append(SchemaReference(argumentDef))
        info.pointee.inputTypeStack.append(
            argumentDef.flatMap { context.type(of: $0) }.flatMap { $0.named.isInputType ? $0 : nil })
        for rule in hooked.argument { call(rule, .argument) { $0.enterArgument(node) } }
        walkValue(node.value)
        for rule in hooked.argument { call(rule, .argument) { $0.leaveArgument(node) } }
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
            let itemType = context.inputType.map { context.itemType(of: $0) }
            info.pointee.defaultValueStack.append(nil)
            info.pointee.inputTypeStack.append(itemType)
            for rule in hooked.value { call(rule, .value) { $0.enterValue(node) } }
            for value in values { walkValue(value) }
            for rule in hooked.value { call(rule, .value) { $0.leaveValue(node) } }
            info.pointee.defaultValueStack.removeLast()
            info.pointee.inputTypeStack.removeLast()
        case .object(let fields, let span):
            guard enterNesting(at: span) else { return }
            defer { depth -= 1 }
            for rule in hooked.value { call(rule, .value) { $0.enterValue(node) } }
            for field in fields { walkObjectField(field) }
            for rule in hooked.value { call(rule, .value) { $0.leaveValue(node) } }
        case .enumValue(let name):
            if let type = context.inputType?.named, type.kind == .enumType {
                info.pointee.enumValueDef = SchemaReference(type.enumValue(named: name.value))
            } else {
                info.pointee.enumValueDef = nil
            }
            for rule in hooked.value { call(rule, .value) { $0.enterValue(node) } }
            for rule in hooked.value { call(rule, .value) { $0.leaveValue(node) } }
            info.pointee.enumValueDef = nil
        case .variable(let variable):
            context.recordVariableUsage(variable)
            for rule in hooked.value { call(rule, .value) { $0.enterValue(node) } }
            for rule in hooked.value { call(rule, .value) { $0.leaveValue(node) } }
        default:
            for rule in hooked.value { call(rule, .value) { $0.enterValue(node) } }
            for rule in hooked.value { call(rule, .value) { $0.leaveValue(node) } }
        }
    }

    private mutating func walkObjectField(_ node: ObjectField) {
        var inputField: InputValue?
        if let objectType = context.inputType?.named, objectType.kind == .inputObject {
            inputField = objectType.inputField(named: node.name.value)
        }
        info.pointee.defaultValueStack.append(SchemaReference(inputField))
        info.pointee.inputTypeStack.append(
            inputField.flatMap { context.type(of: $0) }.flatMap { $0.named.isInputType ? $0 : nil })
        for rule in hooked.objectField { call(rule, .objectField) { $0.enterObjectField(node) } }
        walkValue(node.value)
        for rule in hooked.objectField { call(rule, .objectField) { $0.leaveObjectField(node) } }
        info.pointee.defaultValueStack.removeLast()
        info.pointee.inputTypeStack.removeLast()
    }

    // MARK: Helpers

    /// Calls one rule's hook through the base class, without retaining the rule (the walker's
    /// `rules` hold it for the whole walk). A debug build calls every rule's hooks and reports an
    /// overridden hook the rule does not declare (a default hook notes that it ran; an override
    /// does not).
    @inline(__always)
    private func call(_ rule: HookedRule, _ hook: ValidationHooks, _ body: (ValidationRuleBase) -> Void) {
        #if DEBUG
            let typed = rule.takeUnretainedValue() as! any ValidationRule
            if !type(of: typed).hooks.isDisjoint(with: hook) {
                rule._withUnsafeGuaranteedRef(body)
                return
            }
            context.defaultHookRan = false
            rule._withUnsafeGuaranteedRef(body)
            if !context.defaultHookRan {
                let id = type(of: typed).id
                if context.undeclaredHooks.insert("\(id) \(hook.rawValue)").inserted {
                    context.report(
                        "Rule \(id) overrides a walker hook (ValidationHooks rawValue \(hook.rawValue)) it does not declare in `hooks`.",
                        rule: "validation-hooks", places: [])
                }
            }
        #else
            rule._withUnsafeGuaranteedRef(body)
        #endif
    }

    /// Calls one rule's field hook (`side` is `.enterField` or `.leaveField`). A debug build calls
    /// a rule declared `.fieldWithDirectives` on every field, and reports it if it reports on a field
    /// without directives (the walk would have skipped it there); it calls a `.fieldPerDefinition`
    /// rule in every definition, and reports it if it reports where its `fieldHooksActive` was false.
    @inline(__always)
    private func callField(
        _ rule: HookedRule, _ node: Field, _ side: ValidationHooks, _ body: (ValidationRuleBase) -> Void
    ) {
        #if DEBUG
            let typed = rule.takeUnretainedValue() as! any ValidationRule
            let hooks = type(of: typed).hooks
            let id = type(of: typed).id
            if hooks.contains(.fieldPerDefinition), !typed.fieldHooksActive {
                let before = context.diagnostics.count
                rule._withUnsafeGuaranteedRef(body)
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
                rule._withUnsafeGuaranteedRef(body)
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
            var inactive: Set<UnsafeMutableRawPointer> = []
            for (index, rule) in hooked.perDefinition.enumerated() where active & (1 << UInt64(min(index, 63))) == 0 {
                inactive.insert(HookedRule.passUnretained(rule).toOpaque())
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

/// A rule as the walker calls it: through the base class, unretained (the walker's `rules` keep it).
private typealias HookedRule = Unmanaged<ValidationRuleBase>

/// The rules of a walk grouped by the hooks they declare, in the rules' order.
private struct HookedRules {
    var document: [HookedRule] = []
    var operation: [HookedRule] = []
    var fragment: [HookedRule] = []
    var variableDefinition: [HookedRule] = []
    var selectionSet: [HookedRule] = []
    /// The field hooks, each rule's as it declares them.
    var fieldHooks = FieldHooks()
    /// The rules declaring `.fieldPerDefinition` (in a debug build, none: every rule is called).
    var perDefinition: [any ValidationRule] = []
    var fragmentSpread: [HookedRule] = []
    var inlineFragment: [HookedRule] = []
    var directives: [HookedRule] = []
    var directive: [HookedRule] = []
    var argument: [HookedRule] = []
    var value: [HookedRule] = []
    var objectField: [HookedRule] = []
    var namedType: [HookedRule] = []

    init(_ rules: [any ValidationRule], everyHook: Bool) {
        for rule in rules {
            let hooked = HookedRule.passUnretained(rule)
            #if DEBUG
                let hooks = ValidationHooks.all
            #else
                let hooks = everyHook ? ValidationHooks.all : type(of: rule).hooks
            #endif
            if hooks.contains(.document) { document.append(hooked) }
            if hooks.contains(.operation) { operation.append(hooked) }
            if hooks.contains(.fragment) { fragment.append(hooked) }
            if hooks.contains(.variableDefinition) { variableDefinition.append(hooked) }
            if hooks.contains(.selectionSet) { selectionSet.append(hooked) }
            if hooks.callsField(withDirectives: true) { fieldHooks.enter.append(hooked) }
            if hooks.callsField(withDirectives: false) { fieldHooks.enterWithoutDirectives.append(hooked) }
            if hooks.callsLeaveField(withDirectives: true) { fieldHooks.leave.append(hooked) }
            if hooks.callsLeaveField(withDirectives: false) { fieldHooks.leaveWithoutDirectives.append(hooked) }
            #if !DEBUG
                if hooks.contains(.fieldPerDefinition) { perDefinition.append(rule) }
            #endif
            if hooks.contains(.fragmentSpread) { fragmentSpread.append(hooked) }
            if hooks.contains(.inlineFragment) { inlineFragment.append(hooked) }
            if hooks.contains(.directives) { directives.append(hooked) }
            if hooks.contains(.directive) { directive.append(hooked) }
            if hooks.contains(.argument) { argument.append(hooked) }
            if hooks.contains(.value) { value.append(hooked) }
            if hooks.contains(.objectField) { objectField.append(hooked) }
            if hooks.contains(.namedType) { namedType.append(hooked) }
        }
    }
}

/// The rules whose `enterField` and `leaveField` hooks are called at a field with directives and at
/// one without, in the rules' order.
private struct FieldHooks {
    var enter: [HookedRule] = []
    var enterWithoutDirectives: [HookedRule] = []
    var leave: [HookedRule] = []
    var leaveWithoutDirectives: [HookedRule] = []

    /// The same lists without the given rules.
    func without(_ rules: Set<UnsafeMutableRawPointer>) -> FieldHooks {
        func kept(_ list: [HookedRule]) -> [HookedRule] {
            list.filter { !rules.contains($0.toOpaque()) }
        }
        return FieldHooks(
            enter: kept(enter), enterWithoutDirectives: kept(enterWithoutDirectives), leave: kept(leave),
            leaveWithoutDirectives: kept(leaveWithoutDirectives))
    }
}
