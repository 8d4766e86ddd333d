// A reader object whose next() calls parse() before it broadcasts the
// record: parse() counts the fields of what rank 0 alone read (3 there, 0
// elsewhere), and rank 0 waits in an all-reduce the others never issue.
// run: mpi buggy
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
    parse();
    MPI_Bcast(&length_, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(record_, length_, MPI_CHAR, 0, MPI_COMM_WORLD);
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
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("%d fields, sum %g\n", reader.fields(), sum);
  MPI_Finalize();
  return 0;
}
