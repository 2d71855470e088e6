#!/bin/sh
# snapshot.sh builds a release as the real one would, without publishing:
# GoReleaser (pinned, from the Go module proxy) writes the archives of every
# platform with checksums and SBOMs into dist/, then tools/npmpack turns its
# binaries into the npm packages (dist/npm/*.tgz) that `npx mcptui` installs.
#
#   tools/release/snapshot.sh
set -eu
cd "$(dirname "$0")/../.."
go run github.com/goreleaser/goreleaser/v2@v2.17.0 release --snapshot --clean
version=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)
go run ./tools/npmpack -artifacts dist/artifacts.json -version "$version" -out dist/npm -pack
