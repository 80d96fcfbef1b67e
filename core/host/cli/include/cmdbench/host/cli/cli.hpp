// The `cmdbench` command line: subcommands run, serve, plugins.
#pragma once

namespace cmdbench {

int cli_main(int argc, char **argv);

} // namespace cmdbench
