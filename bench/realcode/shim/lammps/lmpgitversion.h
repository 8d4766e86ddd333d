// Stand-in for LAMMPS's generated lmpgitversion.h (bench/realcode only): a
// build without git information.
const bool LAMMPS_NS::LAMMPS::has_git_info = false;
const char LAMMPS_NS::LAMMPS::git_commit[] = "";
const char LAMMPS_NS::LAMMPS::git_branch[] = "";
const char LAMMPS_NS::LAMMPS::git_descriptor[] = "";
