-- Neovim headless against `baton lsp` (Debian's neovim 0.7 and later): opens one file, attaches the server,
-- waits for its diagnostics and writes them, one a line, to $BATON_OUTPUT as
-- line:column:endLine:endColumn:code:message (0-based; columns in bytes, as Neovim holds them), then quits.
local root = os.getenv("BATON_PROJECT")
local output = os.getenv("BATON_OUTPUT")
local file = os.getenv("BATON_FILE")
vim.cmd("edit " .. vim.fn.fnameescape(root .. "/" .. file))
local client = vim.lsp.start_client({
  name = "baton",
  cmd = { os.getenv("BATON_BINARY"), "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "project" } },
})
vim.lsp.buf_attach_client(0, client)
local arrived = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local lines = {}
if not arrived then table.insert(lines, "no diagnostics arrived") end
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ""
  table.insert(lines, string.format("%d:%d:%d:%d:%s:%s", d.lnum, d.col, d.end_lnum, d.end_col, code, d.message))
end
vim.fn.writefile(lines, output)
vim.lsp.stop_client(client)
vim.wait(2000, function() return vim.lsp.get_client_by_id(client) == nil end, 20)
vim.cmd("qa!")
