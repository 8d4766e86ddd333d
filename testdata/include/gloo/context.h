// distlint test declarations: <gloo/context.h> (Gloo as Debian's libgloo-dev
// ships it): a context's timeout bounds every wait of its collectives.
#pragma once
#include <gloo/common/error.h>

#include <chrono>
#include <memory>

namespace gloo {

class Context {
public:
  Context(int rank, int size, int base = 2);
  virtual ~Context();

  const int rank;
  const int size;
  int base;

  void setTimeout(std::chrono::milliseconds timeout);
  std::chrono::milliseconds getTimeout() const;

protected:
  std::chrono::milliseconds timeout_;
};

} // namespace gloo
