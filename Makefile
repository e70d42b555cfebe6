# make install [PREFIX=/usr/local]: a release baton in PREFIX/bin (scripts/install.sh).
# make artifactbundle: dist/baton.artifactbundle and the BatonBinary package (scripts/make-artifactbundle.sh).
PREFIX ?= /usr/local

.PHONY: install artifactbundle

install:
	PREFIX="$(PREFIX)" scripts/install.sh

artifactbundle:
	scripts/make-artifactbundle.sh --output dist
