"""End-to-end scenarios: diagnostics as `baton check` reports them, edits reaching other documents, a broken
baton.json, hover, definition, completion, symbols, and the protocol's errors."""
import asyncio
import pathlib

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcMethodNotFound

from conftest import FRAGMENT, OPERATION, check_json, lsp_diagnostics


async def until(condition, timeout=10.0):
    """Polls until `condition()` holds. (Waiting for "the next notification" races with the client's handler,
    which stores the diagnostics after the waiters are woken.)"""
    async def ready():
        while not condition():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(ready(), timeout)


async def settle(client, uris, timeout=10.0):
    """Waits until the client holds diagnostics for every URI in `uris`."""
    await until(lambda: all(uri in client.diagnostics for uri in uris), timeout)


def uri(client, relative):
    return (client.project / relative).as_uri()


def open_document(client, relative, text=None, language="graphql"):
    path = client.project / relative
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id=language, version=1,
                text=path.read_text(encoding="utf-8") if text is None else text)))


def change_document(client, relative, text, version=2):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, relative), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def test_diagnostics_match_baton_check_json(client):
    await settle(client, [uri(client, "Sources/Screen.swift")])
    assert lsp_diagnostics(client) == check_json(client.project)
    [diagnostic] = client.diagnostics[uri(client, "Sources/Screen.swift")]
    # After "👋 日本語" (2 + 1 + 3 UTF-16 code units): the column check prints, less one.
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (1, 54)
    assert diagnostic.code == "fields-on-correct-type"
    assert diagnostic.severity == types.DiagnosticSeverity.Error


async def test_an_edit_reaches_the_documents_spreading_a_fragment(client):
    await settle(client, [uri(client, "Sources/Screen.swift")])
    open_document(client, "Queries/UserParts.graphql")
    renamed = FRAGMENT.replace("UserParts", "UserPartz")
    change_document(client, "Queries/UserParts.graphql", renamed)
    await until(lambda: client.diagnostics.get(uri(client, "Queries/Profile.graphql")))
    [unknown] = client.diagnostics[uri(client, "Queries/Profile.graphql")]
    assert unknown.message == 'Unknown fragment "UserParts".'
    # The same text on disk, checked by `baton check`: the same diagnostics, positions included.
    (client.project / "Queries/UserParts.graphql").write_text(renamed, encoding="utf-8")
    assert lsp_diagnostics(client) == check_json(client.project)


async def test_a_broken_baton_json_is_reported_and_recovers(client):
    await settle(client, [uri(client, "Sources/Screen.swift")])
    config = client.project / "baton.json"
    good = config.read_text()
    config.write_text('{"schema": 12}')
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=config.as_uri())))
    await settle(client, [config.as_uri()])
    assert [d.code for d in client.diagnostics[config.as_uri()]] == ["config"]
    config.write_text(good)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=config.as_uri())))
    await until(lambda: len(client.diagnostics[config.as_uri()]) == 0)
    assert lsp_diagnostics(client) == check_json(client.project)


async def test_hover_definition_completion_and_symbols(client):
    fragment = types.TextDocumentIdentifier(uri=uri(client, "Queries/UserParts.graphql"))
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=fragment, position=types.Position(line=2, character=3)))
    assert "User.name: String" in hover.contents.value
    assert "The user's display name." in hover.contents.value

    swift = types.TextDocumentIdentifier(uri=uri(client, "Sources/Screen.swift"))
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=swift, position=types.Position(line=1, character=50)))
    assert "Query.me: User" in hover.contents.value

    profile = types.TextDocumentIdentifier(uri=uri(client, "Queries/Profile.graphql"))
    [location] = await client.text_document_definition_async(
        types.DefinitionParams(text_document=profile, position=types.Position(line=2, character=9)))
    assert location.uri == fragment.uri
    assert (location.range.start.line, location.range.start.character) == (0, 9)

    completion = await client.text_document_completion_async(
        types.CompletionParams(text_document=fragment, position=types.Position(line=2, character=2)))
    items = completion.items if hasattr(completion, "items") else completion
    assert {item.label for item in items} == {"id", "name", "login", "__typename", "UserParts"}

    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="Prof"))
    assert [symbol.name for symbol in symbols] == ["Profile"]


async def test_file_watchers_are_registered(client):
    await until(lambda: "workspace/didChangeWatchedFiles" in client.registrations)


async def test_unknown_requests_and_notifications(client):
    with pytest.raises(JsonRpcMethodNotFound):
        await client.protocol.send_request_async("baton/noSuchMethod", {})
    client.protocol.notify("baton/noSuchNotification", {})
    # Still answering.
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(client, "Queries/Profile.graphql")),
            position=types.Position(line=999, character=999)))
    assert hover is None


async def test_utf8_positions_when_the_client_offers_them(utf8_client):
    client = utf8_client
    assert client.initialize_result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    await settle(client, [uri(client, "Sources/Screen.swift")])
    [diagnostic] = client.diagnostics[uri(client, "Sources/Screen.swift")]
    # "👋" is 4 bytes and "日本語" 9: byte 62 where UTF-16 counts 54.
    line = (client.project / "Sources/Screen.swift").read_text(encoding="utf-8").split("\n")[1]
    assert line.encode("utf-8")[62:66] == b"nmae"
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (1, 62)
    assert (diagnostic.range.end.line, diagnostic.range.end.character) == (1, 66)
