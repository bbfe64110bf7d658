/* datadir.h - finds a shipped config, table or study given by name
 * (`--config h100`, `--table h200`, `study histogram-bins`) when no such
 * file exists from the working directory: in the installed data directory
 * (PREFIX/share/atomsim, found from the binary's own path, else the one
 * compiled in) or, for a binary that sits in the source tree's build/, in
 * the tree itself.  A path that exists is returned as given, so every
 * command reads and reports it exactly as before. */
#ifndef ATOM_APP_DATADIR_H
#define ATOM_APP_DATADIR_H

enum dd_kind {
    DD_CONFIG, /* configs/NAME.ini */
    DD_TABLE,  /* tables/NAME.json */
    DD_STUDY,  /* configs/studies/NAME.ini */
};

/* `arg` itself when it names an existing file, is absolute, or is found
 * nowhere (the reader then says it cannot open `arg`, as before); else the
 * file found, a string that lives until the process exits.  A bare name
 * may leave out the extension; a relative path with a folder
 * (configs/h100.ini, as the shipped studies name their configs) is looked
 * for under each data directory as it stands. */
const char *dd_find(const char *arg, enum dd_kind kind);

#endif
