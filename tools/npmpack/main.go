// Command npmpack builds mcptui's npm packages from release binaries: the
// launcher package "mcptui" (npm/mcptui, with its version and its optional
// dependencies filled in) and one package per platform,
// "@mcptui/<platform>-<arch>", holding that platform's binary and declaring
// its os and cpu so that npm installs only the one that fits. With -pack
// each package is also packed by `npm pack` into a tarball ready to publish.
//
//	go run ./tools/npmpack -artifacts dist/artifacts.json -version 1.2.3 -out dist/npm -pack
//	go run ./tools/npmpack -binary linux/amd64=/tmp/mcptui -version 0.0.0-test -out /tmp/npm
//
// GoReleaser runs the first form after a release build (.goreleaser.yaml).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "npmpack:", err)
		os.Exit(1)
	}
}

// binaryFlags collects -binary GOOS/GOARCH=PATH.
type binaryFlags []Binary

func (b *binaryFlags) String() string { return fmt.Sprint(*b) }

func (b *binaryFlags) Set(v string) error {
	target, file, ok := strings.Cut(v, "=")
	goos, goarch, ok2 := strings.Cut(target, "/")
	if !ok || !ok2 || file == "" {
		return fmt.Errorf("-binary %q: want GOOS/GOARCH=PATH", v)
	}
	*b = append(*b, Binary{GOOS: goos, GOARCH: goarch, Path: file})
	return nil
}

func run(args []string) error {
	fs := flag.NewFlagSet("npmpack", flag.ContinueOnError)
	artifacts := fs.String("artifacts", "", "GoReleaser's dist/artifacts.json: take every binary it lists")
	var binaries binaryFlags
	fs.Var(&binaries, "binary", "GOOS/GOARCH=PATH: a binary to package (repeatable)")
	version := fs.String("version", "", "the packages' version (semver, without a leading v)")
	out := fs.String("out", "", "the folder to write the packages into (made anew)")
	launcher := fs.String("launcher", "npm/mcptui", "the launcher package's source folder")
	pack := fs.Bool("pack", false, "also run npm pack in each package, leaving the tarballs in -out")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *version == "" || *out == "" {
		return errors.New("-version and -out are required")
	}
	if *artifacts != "" {
		listed, err := ReadArtifacts(*artifacts)
		if err != nil {
			return err
		}
		binaries = append(binaries, listed...)
	}
	if len(binaries) == 0 {
		return errors.New("no binaries: give -artifacts or -binary")
	}
	dirs, err := Write(*launcher, binaries, strings.TrimPrefix(*version, "v"), *out)
	if err != nil {
		return err
	}
	for _, dir := range dirs {
		if *pack {
			tarball, err := Pack(dir, *out)
			if err != nil {
				return err
			}
			fmt.Println(tarball)
		} else {
			fmt.Println(dir)
		}
	}
	return nil
}
