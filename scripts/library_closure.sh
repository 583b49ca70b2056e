# Sourced by the pack scripts (pack-gpu-mpi.sh, pack-gpu-build.sh): the shared libraries a program
# loads, copied under the names the loader asks for, for a machine that lacks them.
#
#   copy_closure PROGRAM FOLDER [SKIP]   # SKIP: an extended regex of library names left out
#
# glibc's libraries always stay behind: the GPU machine's are newer.
copy_closure() {
  local skip='^(libc|libm|libdl|libpthread|librt|libresolv|ld-linux-x86-64)\.so'
  [ -n "${3:-}" ] && skip="$skip|$3"
  ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | while read -r name path; do
    [[ $name =~ $skip ]] && continue
    [[ -e $2/$name ]] || cp -L "$path" "$2/$name"
  done
}
