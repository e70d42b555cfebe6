import Baton
import SwiftUI

/// Where the app shows the guide's screen: one environment for the app, passed down, and the screen made with its
/// variables (the memberwise initializer takes the `@Query` wrapper, whose literal stays in the screen).
struct RootView: View {
    let environment: BatonEnvironment

    var body: some View {
        RepositoryScreen(repository: Query(RepositoryQuery(owner: "apple", name: "swift")))
            .environment(\.baton, environment)
    }
}
