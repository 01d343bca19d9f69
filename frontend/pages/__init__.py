"""The pages: server-rendered shells (ids and translated labels) that the ES modules in
`static/frontend/js/` fill from the public API and the match socket."""
