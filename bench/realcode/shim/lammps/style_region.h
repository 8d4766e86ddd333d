// Stand-in for LAMMPS's generated style_region.h (bench/realcode only): no
// styles registered; the core files analyzed do not need them.
