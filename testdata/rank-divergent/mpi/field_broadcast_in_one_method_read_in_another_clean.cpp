// A reader object: next() has rank 0 read a record into the object's
// buffer and broadcasts it, then calls parse(), which counts the record's
// fields into another member. Every rank parses the same bytes, so the
// loop main runs over the count runs alike everywhere: every method that
// writes the buffer a rank-dependent value (next() alone) has it agreed
// wherever the object can be seen outside it (the call of parse(), its
// return), so parse() and every other reader see one value.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <cstring>

class RecordReader {
public:
  explicit RecordReader(const char *path) : path_(path) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  }
  void next() {
    if (rank_ == 0) {
      std::FILE *f = std::fopen(path_, "rb");
      length_ = f ? int(std::fread(record_, 1, 3, f)) : 0;
      if (f)
        std::fclose(f);
    }
    MPI_Bcast(&length_, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(record_, length_, MPI_CHAR, 0, MPI_COMM_WORLD);
    parse();
  }
  int fields() const { return fields_; }

private:
  void parse() {
    fields_ = 0;
    for (int i = 0; i < length_; ++i)
      fields_ += record_[i] != ' ';
  }
  const char *path_;
  int rank_ = 0, length_ = 0, fields_ = 0;
  char record_[4] = {0, 0, 0, 0};
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  RecordReader reader(argv[0]);
  reader.next();
  double x = 1, sum = 0;
  for (int i = 0; i < reader.fields(); ++i)
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  std::printf("%d fields, sum %g\n", reader.fields(), sum);
  MPI_Finalize();
  return 0;
}
