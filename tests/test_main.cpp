// main() of the plain test programs; Catch2 itself is compiled once, in catch_session.cpp.
#include "catch_session.h"

int main(int argc, char** argv) {
    return bif::test::run_catch_session(argc, argv);
}
