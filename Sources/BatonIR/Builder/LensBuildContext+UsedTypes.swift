import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

extension LensBuildContext {
    /// The enums, input objects and custom scalars a lens (not the fragments it spreads) and
    /// variables use, through input objects transitively.
    func usedTypeNames(lens: Lens, variables: [VariableModel]) -> UsedTypeNames {
        var enums: Set<String> = []
        var inputs: Set<String> = []
        var scalars: Set<String> = []
        var stack: [Lens] = [lens]
        while let next = stack.popLast() {
            for accessor in next.accessors {
                switch accessor.base {
                case .scalar(let scalar): if !scalar.isBuiltIn { scalars.insert(scalar.name) }
                case .enumeration(let name): enums.insert(name)
                case .lens(let child): stack.append(child)
                case .fragment: break
                }
            }
        }
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
        return UsedTypeNames(enums: enums.sorted(), inputObjects: inputs.sorted(), customScalars: scalars.sorted())
    }

    func usedTypes(_ names: UsedTypeNames) -> UsedTypes {
        let enums = names.enums.compactMap { schema.type(named: $0) }.map { type in
            EnumModel(
                name: type.name, description: type.description,
                values: type.enumValues.map {
                    EnumValueModel(name: $0.name, description: $0.description, deprecationReason: $0.deprecationReason)
                })
        }
        let inputs = names.inputObjects.compactMap { schema.type(named: $0) }.map { type in
            for field in type.inputFields
            where LensModelBuilder.listDepth(field.type) > LensModelBuilder.maximumListLevels
                || field.defaultValue.map(LensModelBuilder.valueDepth).map({ $0 > LensModelBuilder.maximumValueDepth })
                    == true
            {
                reportDeepValue("The input field \(type.name).\(field.name)", at: field.location?.range)
            }
            return InputObjectModel(
                name: type.name, description: type.description, isOneOf: type.isOneOf,
                fields: type.inputFields.map {
                    InputFieldModel(
                        name: $0.name, description: $0.description, type: $0.type, defaultValue: $0.defaultValue,
                        deprecationReason: $0.deprecationReason)
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
