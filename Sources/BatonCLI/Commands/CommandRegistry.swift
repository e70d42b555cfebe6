/// Every `baton` subcommand, in the order `baton --help` lists them. Adding a command is a
/// new file in this folder and one line here.
package enum CommandRegistry {
    package static var commands: [any Command.Type] {
        [
            InitCommand.self,
            CheckCommand.self,
            PlateCommand.self,
            GenCommand.self,
            FetchSchemaCommand.self,
            LspCommand.self,
        ]
    }
}
