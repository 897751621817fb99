# What `cmake --install build --prefix P` puts under P, and the Debian package cpack builds:
#
#   include/columnar_table/<layer>/*.h   public headers (RocksDB public headers only below them)
#   lib/libcolumnar_{format,filter,plugin,table_api}.a, lib/libcolumnar_table.so
#   lib/cmake/ColumnarTable/             find_package(ColumnarTable CONFIG): imported targets
#                                        ColumnarTable::table_api, ::plugin, ::plugin_shared
#   lib/pkgconfig/columnar_table.pc      the Table API and the static plugin, for pkg-config
#   bin/cql_shell, bin/columnar_sst_dump, bin/db_bench_ext
#
# Linking ColumnarTable::table_api needs nothing else: Database::Open registers the table
# factories. Plain RocksDB programs linking ColumnarTable::plugin call
# columnar::RegisterColumnarTableFactories() (plugin/columnar_table.h) before opening a
# database whose OPTIONS name ColumnarTable.
include(CMakePackageConfigHelpers)

set(COLUMNAR_PACKAGE_VERSION 0.1.0)
set(COLUMNAR_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/ColumnarTable")

# Headers: every header of the pure layers except the SIMD kernels' (they include xsimd), the
# Table API's, and the plugin's public ones (the others include RocksDB internal headers).
set(COLUMNAR_PUBLIC_PLUGIN_HEADERS
    columnar_table.h pushdown.h row_compaction_filter.h row_expiry_properties.h
    tiered_table_factory.h time_window_partitioner.h)
file(GLOB _columnar_layer_headers RELATIVE ${CMAKE_SOURCE_DIR}
     ${CMAKE_SOURCE_DIR}/table_format/*.h ${CMAKE_SOURCE_DIR}/table_format/encodings/*.h
     ${CMAKE_SOURCE_DIR}/filter/*.h ${CMAKE_SOURCE_DIR}/table_api/*.h
     ${CMAKE_SOURCE_DIR}/table_api/parquet/*.h)
foreach(header ${COLUMNAR_PUBLIC_PLUGIN_HEADERS})
  list(APPEND _columnar_layer_headers plugin/${header})
endforeach()
foreach(header ${_columnar_layer_headers})
  file(STRINGS ${CMAKE_SOURCE_DIR}/${header} _xsimd_includes REGEX "#include <xsimd")
  if(_xsimd_includes OR header MATCHES "(_avx2|_avx512|_sse2)[^/]*\\.h$|_impl\\.h$|kernel_(arch|loop)\\.h$")
    continue()  # SIMD kernels: compiled with their own instruction-set flags, never public
  endif()
  get_filename_component(_dir ${header} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/${header} DESTINATION ${COLUMNAR_INSTALL_INCLUDEDIR}/${_dir}
          COMPONENT dev)
endforeach()

set_target_properties(columnar_plugin PROPERTIES EXPORT_NAME plugin)
set_target_properties(columnar_table_api PROPERTIES EXPORT_NAME table_api)
set_target_properties(columnar_filter PROPERTIES EXPORT_NAME filter)
set_target_properties(columnar_format PROPERTIES EXPORT_NAME format)
set_target_properties(columnar_table PROPERTIES EXPORT_NAME plugin_shared)
install(TARGETS columnar_table_api columnar_plugin columnar_filter columnar_format columnar_table
        EXPORT ColumnarTableTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(TARGETS cql_shell columnar_sst_dump db_bench_ext RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        COMPONENT dev)
install(EXPORT ColumnarTableTargets NAMESPACE ColumnarTable:: DESTINATION ${COLUMNAR_CMAKE_INSTALL_DIR}
        COMPONENT dev)

configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/ColumnarTableConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/ColumnarTableConfig.cmake
                              INSTALL_DESTINATION ${COLUMNAR_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/ColumnarTableConfigVersion.cmake
                                 VERSION ${COLUMNAR_PACKAGE_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/ColumnarTableConfig.cmake
              ${CMAKE_BINARY_DIR}/ColumnarTableConfigVersion.cmake
        DESTINATION ${COLUMNAR_CMAKE_INSTALL_DIR} COMPONENT dev)

# pkg-config: paths relative to where the .pc file lands (${pcfiledir}), so the package works
# under any prefix.
file(RELATIVE_PATH COLUMNAR_PC_PREFIX_FROM_PCFILEDIR /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
configure_file(${CMAKE_SOURCE_DIR}/cmake/columnar_table.pc.in ${CMAKE_BINARY_DIR}/columnar_table.pc
               @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/columnar_table.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT dev)

# cpack -G DEB (run in the build directory): one -dev package with everything above.
set(CPACK_PACKAGE_NAME libcolumnar-table-dev)
set(CPACK_PACKAGE_VERSION ${COLUMNAR_PACKAGE_VERSION})
set(CPACK_PACKAGE_VENDOR "columnar_rocksdb")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "ColumnarTable: a columnar PAX table format and a Cassandra-style Table API for RocksDB 7.8")
set(CPACK_PACKAGE_CONTACT "columnar_rocksdb maintainers <columnar@localhost>")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
# The static libraries and headers need RocksDB's, zstd's and lz4's development packages.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "librocksdb-dev (>= 7.8.3), librocksdb-dev (<< 7.9), libzstd-dev, liblz4-dev, libsnappy-dev, libgflags2.2")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
include(CPack)
