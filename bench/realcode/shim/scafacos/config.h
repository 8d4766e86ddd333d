/* distlint real-code corpus: stand-in for the config.h ScaFaCoS's configure
   writes, for a build with double floats, int indices and the Ewald solver. */
#include "fcs_config.h"
