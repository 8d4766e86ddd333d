// Regression test: a self-recursive member function template that stores
// its parameters in fields (the shape of a formatting library's integer
// buffer preparation, bundled into a project) used to crash the analysis.
// run: mpi clean
#include <mpi.h>
#include <cstddef>
#include <cstdio>

template <typename Char> class Writer {
public:
  template <typename UInt>
  Char *prepare_int_buffer(UInt value, std::size_t width, Char fill) {
    size_ = width;
    fill_ = fill;
    last_ = static_cast<std::size_t>(value % 10);
    if (value >= 10 && width > 1)
      return prepare_int_buffer<UInt>(value / 10, width - 1, fill);
    if (width > sizeof(buffer_))
      return prepare_int_buffer<unsigned>(static_cast<unsigned>(value),
                                          sizeof(buffer_), fill);
    return buffer_ + (sizeof(buffer_) - width);
  }
  std::size_t size() const { return size_; }

private:
  Char buffer_[32] = {};
  std::size_t size_ = 0;
  std::size_t last_ = 0;
  Char fill_ = ' ';
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Writer<char> w;
  w.prepare_int_buffer(12345ul + rank, 8, '0');
  w.prepare_int_buffer(7u, 40, ' ');
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d: %zu\n", rank, w.size());
  MPI_Finalize();
  return 0;
}
