#include "cli.hpp"

int main(int argc, char **argv) {
    return cmdbench::cli_main(argc, argv);
}
