"""`baton lsp` driven by a real LSP client (pytest-lsp, on pygls and lsprotocol).

The built `baton` is named by BATON_BINARY (EndToEndTests.swift sets it). Each test gets a fresh copy of a small
project: a schema, a fragment, an operation spreading it, and a Swift file with emoji and CJK text before an
`@Query` literal on the same line.
"""
import json
import os
import pathlib
import subprocess

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

BATON = os.environ.get("BATON_BINARY", "baton")

SCHEMA = '''type Query {
  "A user by id."
  user(id: ID!): User
  me: User
}

"Someone who signed up."
type User {
  id: ID!
  "The user's display name."
  name: String
  login: String @deprecated(reason: "Use name.")
}
'''
FRAGMENT = "fragment UserParts on User {\n  id\n  name\n}\n"
OPERATION = "query Profile {\n  me {\n    ...UserParts\n  }\n}\n"
SWIFT = 'struct Screen {\n    let title = "👋 日本語"; @Query("query Screen { me { nmae } }") var screen: ScreenQuery\n}\n'
CONFIG = '{"schema": "schema.graphql", "documents": ["Queries/*.graphql", "Sources/*.swift"]}'


def write_project(root: pathlib.Path) -> pathlib.Path:
    files = {
        "baton.json": CONFIG,
        "schema.graphql": SCHEMA,
        "Queries/UserParts.graphql": FRAGMENT,
        "Queries/Profile.graphql": OPERATION,
        "Sources/Screen.swift": SWIFT,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def check_json(root: pathlib.Path) -> list:
    """`baton check --format json` on the project, as (path, line, column, endLine, endColumn, rule, message)."""
    run = subprocess.run([BATON, "check", "--format", "json"], cwd=root, capture_output=True, text=True, timeout=60)
    report = json.loads(run.stdout)
    return sorted(
        (str((root / d["file"]).resolve()), d["line"], d["column"], d["endLine"], d["endColumn"], d["rule"], d["message"])
        for d in report["diagnostics"]
        if "line" in d
    )


def lsp_diagnostics(client: LanguageClient) -> list:
    """The client's diagnostics in the same shape (1-based lines and UTF-16 columns, as check prints them)."""
    found = []
    for uri, diagnostics in client.diagnostics.items():
        path = str(pathlib.Path(uri.removeprefix("file://")).resolve())
        for d in diagnostics:
            r = d.range
            found.append(
                (path, r.start.line + 1, r.start.character + 1, r.end.line + 1, r.end.character + 1, d.code, d.message)
            )
    return sorted(found)


@pytest.fixture
def project(tmp_path):
    return write_project(tmp_path.resolve())


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BATON, "lsp"]))
async def client(lsp_client: LanguageClient, project):
    lsp_client.registrations = []

    # VS Code's capabilities offer dynamic registration of file watchers: the server asks for them.
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams):
        lsp_client.registrations += [registration.method for registration in params.registrations]

    capabilities = client_capabilities("visual-studio-code")
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            workspace_folders=[types.WorkspaceFolder(uri=project.as_uri(), name="project")],
        )
    )
    lsp_client.project = project
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BATON, "lsp"]))
async def utf8_client(lsp_client: LanguageClient, project):
    """A client that offers UTF-8 positions (LSP 3.17 `general.positionEncodings`)."""
    capabilities = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16]))
    lsp_client.initialize_result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities, root_uri=project.as_uri()))
    lsp_client.project = project
    yield
    await lsp_client.shutdown_session()
