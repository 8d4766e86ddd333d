// Parses, with an error: listed under errors; other files still analyzed.
int main() { return undeclared_name; }
