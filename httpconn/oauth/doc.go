// Package oauth is the client side of MCP's authorization (OAuth 2.1) for
// HTTP servers, as the specification's revisions 2025-03-26, 2025-06-18,
// 2025-11-25 and the 2026-07-28 draft define it.
//
// A Transport wraps the http.RoundTripper of an httpconn.Conn. When the
// MCP server answers 401 with a WWW-Authenticate challenge it discovers
// the protected resource metadata (RFC 9728: the challenge's
// resource_metadata, then the well-known URLs), checks that it names this
// server, discovers the authorization server's metadata (RFC 8414 and
// OpenID Connect discovery, with the issuer checked exactly), gets a client
// (pre-registered, a Client ID Metadata Document URL, or dynamic
// registration per RFC 7591), runs the authorization code grant with PKCE
// S256 through a loopback redirect listener on 127.0.0.1 (state and, per
// RFC 9207, iss checked), exchanges the code with the resource indicator
// (RFC 8707), and retries the request with the Bearer token. Tokens are
// refreshed when they expire; a 403 insufficient_scope challenge asks for
// the union of the scopes held and the ones challenged, a bounded number of
// times. Without protected resource metadata (servers of 2025-03-26) the
// authorization server is the server's origin, with the default endpoints
// when it publishes no metadata either.
//
// The token is sent only to the MCP server's origin, never to another one a
// redirect leads to. Tokens stay in memory unless a FileStore keeps them
// (mode 0600).
package oauth
