// The `novamd` program (app/cli.hpp).

#include "novamd/app/cli.hpp"

int main(int argc, char** argv) {
  return novamd::app::run_cli(argc, argv);
}
