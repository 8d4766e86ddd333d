// Stand-in for LAMMPS's generated lmpinstalledpkgs.h (bench/realcode only).
#define LMP_INSTALLED_PKGS(_)
