# `cmake --build build --target package`: a Debian package (CPack DEB) that
# installs beside iproute2. iproute2 owns /usr/bin/rdma and rdma*.8; the
# maintainer scripts divert its copies to rdma.iproute2 and
# rdma*.iproute2.8.gz while this package is installed (README.md, "Package").

# The license and the changelog Debian's policy asks for, in the doc dir.
set(CPACK_DEBIAN_PACKAGE_MAINTAINER
    "rdma maintainers <maintainers@users.noreply.a-seed-8e321b05.example>"
    CACHE STRING "Maintainer field of the Debian package")
configure_file(packaging/deb/changelog.in ${CMAKE_BINARY_DIR}/packaging/changelog @ONLY)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/packaging/changelog.gz
  COMMAND sh -c "gzip -9n -c \"$0\" > \"$1\"" ${CMAKE_BINARY_DIR}/packaging/changelog
          ${CMAKE_BINARY_DIR}/packaging/changelog.gz
  DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog VERBATIM)
add_custom_target(changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
install(FILES packaging/deb/copyright ${CMAKE_BINARY_DIR}/packaging/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rdma)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# CPack puts the summary first (the synopsis); lintian wants it not to start
# with the package's name (even as "RDMA").
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "iproute2-style tool for RDMA devices and InfiniBand fabrics")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "rdma shows and changes the kernel's RDMA devices, links, resources,
statistics and system settings over RDMA netlink, with the same text and
JSON output as iproute2's rdma, and manages InfiniBand nodes, ports,
performance counters and subnet managers with MADs (libibumad).
.
It replaces iproute2's /usr/bin/rdma while installed; iproute2's tool stays
available as rdma.iproute2 and comes back when this package is removed.")
# Depends from the binaries' ELF NEEDED entries (dpkg-shlibdeps, in dpkg-dev).
# libibumad and libibverbs are loaded with dlopen by the commands that use
# them only (lib/dl: the MAD commands, the verbs views), so dpkg-shlibdeps
# cannot see them: they are named here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libibumad3, libibverbs1")
# librdmacm only for `rdma bw` (lib/verbs/librdmacm.cc), which says so when
# it is missing.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "librdmacm1")
set(CPACK_STRIP_FILES ON)

# The maintainer scripts divert every path the package shares with iproute2
# (the binary and every page: newer iproute2 releases add pages).
set(DIVERTED /usr/${CMAKE_INSTALL_BINDIR}/rdma)
foreach(page ${MAN_PAGES})
  get_filename_component(name ${page} NAME_WE)
  list(APPEND DIVERTED /usr/${CMAKE_INSTALL_MANDIR}/man8/${name}.8.gz)
endforeach()
set(DIVERT_ADD "")
set(DIVERT_REMOVE "")
foreach(path ${DIVERTED})
  string(REGEX REPLACE "\\.8\\.gz$" ".iproute2.8.gz" aside ${path})
  if(aside STREQUAL path)
    set(aside ${path}.iproute2)
  endif()
  string(APPEND DIVERT_ADD
         "    dpkg-divert --package rdma --rename --quiet --divert ${aside} --add ${path}\n")
  string(APPEND DIVERT_REMOVE
         "    dpkg-divert --package rdma --rename --quiet --divert ${aside} --remove ${path}\n")
endforeach()
string(STRIP "${DIVERT_ADD}" DIVERT_ADD)
string(STRIP "${DIVERT_REMOVE}" DIVERT_REMOVE)
set(DIVERT_ADD "    ${DIVERT_ADD}")
set(DIVERT_REMOVE "    ${DIVERT_REMOVE}")
foreach(script preinst postrm)
  configure_file(packaging/deb/${script}.in ${CMAKE_BINARY_DIR}/packaging/${script} @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                  WORLD_READ WORLD_EXECUTE)
endforeach()
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/packaging/preinst
                                       ${CMAKE_BINARY_DIR}/packaging/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
