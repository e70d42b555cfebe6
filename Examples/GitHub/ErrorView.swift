import Baton
import SwiftUI

/// The app's view of a failed fetch, which the guide's screen assumes: what went wrong and a way to try again.
struct ErrorView: View {
    let error: FetchError
    let retry: @MainActor () -> Void

    init(_ error: FetchError, retry: @escaping @MainActor () -> Void) {
        self.error = error
        self.retry = retry
    }

    var body: some View {
        VStack {
            Text("Could not load: \(error.description)")
            Button("Try again", action: retry)
        }
    }
}
