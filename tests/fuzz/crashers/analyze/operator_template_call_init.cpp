// Found by the analyze harness (seeded from testdata): a variable initialized
// by a call to a function template specialization whose name is an operator
// (std::string's operator+). NamedDecl::getName() asserts on such names, so
// the engine asks for identifiers only.
#include <string>

int main() {
  const std::string Lock = std::string("/tmp") + "/distlint.lock";
  return static_cast<int>(Lock.size());
}
