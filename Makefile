# make install [PREFIX=/usr/local]: a release baton in PREFIX/bin (scripts/install.sh; it checks its
# prerequisites first: make install-check, or scripts/install.sh --check).
# make artifactbundle: dist/baton.artifactbundle and the BatonBinary package (scripts/make-artifactbundle.sh).
PREFIX ?= /usr/local

.PHONY: install install-check artifactbundle

install:
	PREFIX="$(PREFIX)" scripts/install.sh

install-check:
	PREFIX="$(PREFIX)" scripts/install.sh --check

artifactbundle:
	scripts/make-artifactbundle.sh --output dist
