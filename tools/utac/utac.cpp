//===- utac.cpp - The UTA compiler driver ---------------------------------===//

#include "lib/Driver/Utac.h"

int main(int argc, char **argv) { return mlir::uta::runUtacMain(argc, argv); }
