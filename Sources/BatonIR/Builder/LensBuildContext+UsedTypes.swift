import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

extension LensBuildContext {
    /// The enums, input objects and custom scalars a definition's lenses (not the fragments they
    /// spread: `lensTypes`, gathered as its accessors were built) and variables use, through input
    /// objects transitively.
    func usedTypeNames(lensTypes: LensTypeNames, variables: [VariableModel]) -> UsedTypeNames {
        var enums = lensTypes.enums
        var inputs: Set<String> = []
        var scalars = lensTypes.customScalars
        addTypes(of: variables, enums: &enums, inputs: &inputs, scalars: &scalars)
        return UsedTypeNames(enums: enums.sorted(), inputObjects: inputs.sorted(), customScalars: scalars.sorted())
    }

    /// The enums, input objects and custom scalars `variables` use, through input objects transitively.
    private func addTypes(
        of variables: [VariableModel], enums: inout Set<String>, inputs: inout Set<String>, scalars: inout Set<String>
    ) {
        var pendingTypes = variables.map(\.type.namedType)
        while let name = pendingTypes.popLast() {
            guard let type = schema.type(named: name) else { continue }
            switch type.kind {
            case .enumType: enums.insert(name)
            case .scalar: if !type.isBuiltInScalar { scalars.insert(name) }
            case .inputObject:
                if inputs.insert(name).inserted {
                    pendingTypes.append(contentsOf: type.inputFields.map(\.type.namedType))
                }
            default: break
            }
        }
    }

    /// The input objects `variables` use, through input objects transitively, sorted: the only used
    /// types that can refuse (`checkInputFields`), and only variables reach them.
    func inputObjectNames(variables: [VariableModel]) -> [String] {
        var (enums, inputs, scalars) = (Set<String>(), Set<String>(), Set<String>())
        addTypes(of: variables, enums: &enums, inputs: &inputs, scalars: &scalars)
        return inputs.sorted()
    }

    /// Reports the fields of the input objects `names` whose types or defaults nest too deeply for
    /// the generators.
    func checkInputFields(_ names: [String]) {
        for type in names.compactMap({ schema.type(named: $0) }) {
            for field in type.inputFields
            where LensModelBuilder.listDepth(field.type) > LensModelBuilder.maximumListLevels
                || field.defaultValue.map(LensModelBuilder.valueDepth).map({ $0 > LensModelBuilder.maximumValueDepth })
                    == true
            {
                reportDeepValue("The input field \(type.name).\(field.name)", at: field.location?.range)
            }
        }
    }

    func usedTypes(_ names: UsedTypeNames) -> UsedTypes {
        let enums = names.enums.compactMap { schema.type(named: $0) }.map { type in
            EnumModel(
                name: type.name, description: type.description,
                values: type.enumValues.map {
                    EnumValueModel(
                        name: $0.name, description: $0.description,
                        deprecationReason: DeprecationMessage.of($0.deprecationReason))
                })
        }
        let inputs = names.inputObjects.compactMap { schema.type(named: $0) }.map { type in
            InputObjectModel(
                name: type.name, description: type.description, isOneOf: type.isOneOf,
                fields: type.inputFields.map {
                    InputFieldModel(
                        name: $0.name, description: $0.description, type: $0.type, defaultValue: $0.defaultValue,
                        deprecationReason: DeprecationMessage.of($0.deprecationReason))
                })
        }
        let scalars = names.customScalars.compactMap { schema.type(named: $0) }.map { type in
            var url: String?
            if case .string(let string)? = type.directives.first(where: { $0.name == "specifiedBy" })?.argument("url") {
                url = string.value
            }
            return CustomScalarModel(
                name: type.name, description: type.description, specifiedByURL: url,
                mapping: options.customScalars[type.name])
        }
        return UsedTypes(enums: enums, inputObjects: inputs, customScalars: scalars)
    }
}

/// The enums and custom scalars the accessors of one definition read, gathered while they are built.
struct LensTypeNames {
    var enums: Set<String> = []
    var customScalars: Set<String> = []

    /// Adds what an accessor of `base` reads.
    mutating func add(_ base: AccessorBase) {
        switch base {
        case .scalar(let scalar): if !scalar.isBuiltIn { customScalars.insert(scalar.name) }
        case .enumeration(let name): enums.insert(name)
        case .lens, .fragment: break
        }
    }
}

extension UsedTypeNames {
    /// Every name any of `all` holds, sorted: one set per kind, sorted once.
    static func union(of all: [UsedTypeNames]) -> UsedTypeNames {
        var enums: Set<String> = []
        var inputs: Set<String> = []
        var scalars: Set<String> = []
        for names in all {
            enums.formUnion(names.enums)
            inputs.formUnion(names.inputObjects)
            scalars.formUnion(names.customScalars)
        }
        return UsedTypeNames(enums: enums.sorted(), inputObjects: inputs.sorted(), customScalars: scalars.sorted())
    }
}
