#!/usr/bin/env bash
# Installs the real MCP server folio-mcp's tests talk to — @modelcontextprotocol/server-everything,
# pinned — into a cache outside the clone ($HOME/.cache/folio/npm), only when it is missing.
# Needs Node.js 18+ and npm (apt-get install nodejs npm). Takes a few seconds on a warm network.
set -euo pipefail

version="2026.8.31"
prefix="$HOME/.cache/folio/npm"
pkg="$prefix/node_modules/@modelcontextprotocol/server-everything"

if [ -f "$pkg/package.json" ] && grep -q "\"version\": \"$version\"" "$pkg/package.json"; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    echo "folio install: apt-get install nodejs npm (for folio-mcp's test server)"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq nodejs npm
  else
    echo "folio install: node and npm are missing — hint: install Node.js 18+ (https://nodejs.org), then run this again" >&2
    exit 1
  fi
fi
echo "folio install: npm install @modelcontextprotocol/server-everything@$version into $prefix"
npm install --prefix "$prefix" --no-audit --no-fund --silent "@modelcontextprotocol/server-everything@$version"
