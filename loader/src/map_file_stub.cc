// placeholder translation unit so the library builds before its sources land
