/* distlint real-code corpus: stand-in for ScaFaCoS's generated fcs_config.h
   (from fcs_config.h.in): double floats, int indices, the Ewald solver. */
#define FCS_ENABLE_EWALD 1
#define FCS_FLOAT_IS_DOUBLE 1
#define FCS_INT_IS_INT 1
#define FCS_LMOD_FLOAT ""
#define FCS_LMOD_INT ""
#define FCS_MPI_FLOAT MPI_DOUBLE
#define FCS_MPI_INT MPI_INT
#define fcs_float double
#define fcs_int int
#define FC_FUNC(name, NAME) name##_
#define FC_FUNC_(name, NAME) name##_
